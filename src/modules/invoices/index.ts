// The sales documents module's public surface: its routes, and the service functions other
// modules drive documents with (the sandbox's samples, recurring invoices).

export type { Invoice } from './invoices.queries.ts';
export { invoiceRoutes } from './invoices.routes.ts';
export { createInvoice, getInvoice } from './invoices.service.ts';
export { DOCUMENT_TYPES, type DocumentType } from './invoices.tables.ts';
export { recordPayment } from './payments.ts';
export { deleteInvoice, releaseInvoice } from './release.ts';
