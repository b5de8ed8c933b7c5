// The transactions module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { contactTransactionsRoutes } from './contact-transactions.routes.ts';
import { runMonthlyRoutes } from './run-monthly.routes.ts';

export const transactionRoutes: AnyRoute[] = [...contactTransactionsRoutes, ...runMonthlyRoutes];
