// The sales documents module's public surface.

export type { Invoice } from './invoices.queries.ts';
export { invoiceRoutes } from './invoices.routes.ts';
export { DOCUMENT_TYPES, type DocumentType } from './invoices.tables.ts';
