// Contact transactions and metered monthly billing (issue 19): usage or charges recorded
// against a contact, and /admin/billing/run-monthly's aggregates, rolled into draft invoices on
// the first of the month. Every route of it, for the catalogue.
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { contactTransactionsRoutes } from './contact-transactions.routes.ts';
import { runMonthlyRoutes } from './run-monthly.routes.ts';

export const transactionRoutes: AnyRoute[] = [...contactTransactionsRoutes, ...runMonthlyRoutes];
export { MONTHLY_ROLL_CRON, MONTHLY_ROLL_QUEUE, type RollResult, rollMonthly } from './monthly-roll.ts';
