// Supplier bills (issue 16): the purchase side of the books. Routes, and the events the module
// emits (the registry and the OpenAPI document's webhooks).
export { billEvents } from './bills.events.ts';
// What the modules above this one use (index.ts is the only door: test/boundaries.test.ts).
export { payBillCore, reverseBillPayment } from './bills.payments.ts';
// Supplier bills (issue 16): the purchase side of the books. What other modules use, and the data
// schema of each event the module emits (the OpenAPI document's webhooks).
export type { BillRecord } from './bills.queries.ts';
export { amountDueOf, billSettlements, findBillRow } from './bills.queries.ts';
export {
  RECURRING_BILL_JOB_OPTIONS,
  RECURRING_BILL_QUEUE,
  type RecurringBillJob,
  runRecurringBills,
} from './bills.recurring.ts';
// What purchase orders use: the bill schema (a bill made from an order), line pricing, creation.
export { Bill, BillTaxCode as BillTaxCodeSchema } from './bills.schemas.ts';
export { type BillsCtx, insertBill, pricedLines } from './bills.service.ts';
// The VAT rules a supplier's tax invoice is held to, shared with expense claims (a slip is a
// supplier's tax invoice too): the tax codes, the input tax each is tagged with, the s20 check.
export { BILL_TAX_CODES, type BillTaxCode, INPUT_TAX_CODE, taxInvoiceCheck } from './bills.vat.ts';
