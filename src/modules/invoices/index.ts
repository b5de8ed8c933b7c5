// The sales documents module's public surface: the service functions other
// modules drive documents with (the sandbox's samples, recurring invoices), and the data
// schema of each event it emits (the OpenAPI document's webhooks).
import type { TSchema } from 'typebox';
import { CustomerCredit, Refund } from './customer-credits.schemas.ts';
import { Invoice } from './invoices.schemas.ts';
import { Payment } from './payments.schemas.ts';

export { payUrl } from './document-paper.ts';
// The receivable others settle (online payments, bank reconciliation): its row and row lock,
// what is settled and due on it, and recording or reversing a payment against it.
export {
  amountDue,
  findInvoiceRow,
  type Invoice,
  type InvoiceRow,
  lockInvoiceRow,
  RECEIVABLE_TYPES,
  settlements,
} from './invoices.queries.ts';
export { IdParams } from './invoices.schemas.ts';
export {
  createDocument,
  createInvoice,
  getInvoice,
  retireCompanyDocuments,
} from './invoices.service.ts';
export { DOCUMENT_TYPES, type DocumentType } from './invoices.tables.ts';
export { recordPayment, recordPaymentCore, reversePayment } from './payments.ts';
export {
  RECURRING_QUEUE,
  type RecurringJob,
  runRecurring,
} from './recurring.run.ts';
export { deleteInvoice, releaseInvoice } from './release.ts';

/** Each event the module emits, with the schema of its `data` (announce.ts says when each goes). */
export const invoiceEventSchemas: Record<string, TSchema> = {
  'invoice.created': Invoice,
  'invoice.updated': Invoice,
  'invoice.released': Invoice,
  'invoice.voided': Invoice,
  'invoice.paid': Invoice,
  'payment.recorded': Payment,
  'customer_credit.created': CustomerCredit,
  'refund.recorded': Refund,
};

// What the modules above this one use (index.ts is the only door: test/boundaries.test.ts).
export { INVOICE_DEFAULT_SORT, INVOICE_SORT_KEYS } from './invoices.schemas.ts';
export { PaymentParams } from './payments.schemas.ts';
