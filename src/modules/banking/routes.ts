// The banking module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { bankAccountRoutes } from './bank-accounts.routes.ts';
import { bankFeedRoutes } from './bank-feeds.routes.ts';
import { bankRuleRoutes } from './bank-rules.routes.ts';
import { bankStatementRoutes } from './bank-statements.routes.ts';
import { bankTransactionRoutes } from './bank-transactions.routes.ts';
import { reconciliationRoutes } from './reconciliation.routes.ts';

export const bankingRoutes: AnyRoute[] = [
  ...bankAccountRoutes,
  ...bankStatementRoutes,
  ...bankTransactionRoutes,
  ...bankRuleRoutes,
  ...reconciliationRoutes,
  ...bankFeedRoutes,
];
