// Supplier bills (issue 16): the purchase side of the books. Routes, and the data schema of
// each event the module emits (the OpenAPI document's webhooks).
import type { TSchema } from 'typebox';
import { BillRejected } from './bills.schemas.ts';

export { paymentRunRoutes } from './bills.payment-run.routes.ts';
export {
  RECURRING_BILL_JOB_OPTIONS,
  RECURRING_BILL_QUEUE,
  type RecurringBillJob,
  runRecurringBills,
} from './bills.recurring.ts';
export { billRoutes } from './bills.routes.ts';

/** Each event the module emits, with the schema of its `data`. */
export const billEventSchemas: Record<string, TSchema> = {
  'bill.rejected': BillRejected,
};
