// modules drive documents with (the sandbox's samples, recurring invoices), and the events it
// emits (the registry and the OpenAPI document's webhooks).
// The sales documents module's public surface: the service functions other

export { payUrl } from './document-paper.ts';
export { invoiceEvents } from './invoices.events.ts';
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
// What the modules above this one use (index.ts is the only door: test/boundaries.test.ts).
export { INVOICE_DEFAULT_SORT, INVOICE_SORT_KEYS } from './invoices.schemas.ts';
export {
  createDocument,
  createInvoice,
  getInvoice,
  retireCompanyDocuments,
} from './invoices.service.ts';
export { DOCUMENT_TYPES, type DocumentType } from './invoices.tables.ts';
export { PaymentParams } from './payments.schemas.ts';
export { recordPayment, recordPaymentCore, reversePayment } from './payments.ts';
export {
  RECURRING_QUEUE,
  type RecurringJob,
  runRecurring,
} from './recurring.run.ts';
export { deleteInvoice, releaseInvoice } from './release.ts';
