// The banking module's public surface: its routes, and the bank account other modules name.
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { bankAccountRoutes } from './bank-accounts.routes.ts';
import { bankFeedRoutes } from './bank-feeds.routes.ts';
import { bankRuleRoutes } from './bank-rules.routes.ts';
import { bankStatementRoutes } from './bank-statements.routes.ts';
import { bankTransactionRoutes } from './bank-transactions.routes.ts';
import { reconciliationRoutes } from './reconciliation.routes.ts';

export {
  assertBankAccount,
  type BankAccount,
  bankAccountOf,
} from './bank-accounts.service.ts';
export { BANK_FEED_SYNC_CRON, BANK_FEED_SYNC_QUEUE, runDueBankFeeds } from './bank-feeds.jobs.ts';

export const bankingRoutes: AnyRoute[] = [
  ...bankAccountRoutes,
  ...bankStatementRoutes,
  ...bankTransactionRoutes,
  ...bankRuleRoutes,
  ...reconciliationRoutes,
  ...bankFeedRoutes,
];
