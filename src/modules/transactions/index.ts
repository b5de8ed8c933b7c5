// Contact transactions and metered monthly billing (issue 19): usage or charges recorded
// against a contact, and /admin/billing/run-monthly's aggregates, rolled into draft invoices on
// the first of the month. Its routes are in routes.ts.

export { MONTHLY_ROLL_CRON, MONTHLY_ROLL_QUEUE, type RollResult, rollMonthly } from './monthly-roll.ts';
