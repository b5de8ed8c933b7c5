// The sales documents module's public surface: its routes, and the service functions other
// modules drive documents with (the sandbox's samples, recurring invoices).

export type { Invoice } from './invoices.queries.ts';
export { invoiceRoutes } from './invoices.routes.ts';
export {
  createDocument,
  createInvoice,
  getInvoice,
  retireCompanyDocuments,
  type SalesCtx,
  type SystemActor,
} from './invoices.service.ts';
export { DOCUMENT_TYPES, type DocumentType } from './invoices.tables.ts';
export { recordPayment } from './payments.ts';
export { recurringRoutes } from './recurring.routes.ts';
export {
  RECURRING_JOB_OPTIONS,
  RECURRING_QUEUE,
  type RecurringJob,
  runRecurring,
} from './recurring.run.ts';
export { deleteInvoice, releaseInvoice } from './release.ts';
export { settingsRoutes } from './settings.routes.ts';
