// The sales documents module's public surface: its routes, the service functions other
// modules drive documents with (the sandbox's samples, recurring invoices), and the events it
// emits (the registry and the OpenAPI document's webhooks).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { invoiceRoutes as documentRoutes } from './invoices.routes.ts';
import { writeOffRoutes } from './write-off.routes.ts';

export type { Invoice } from './invoices.queries.ts';
/** The routes of sales documents and what is done to them. */
export const invoiceRoutes: AnyRoute[] = [...documentRoutes, ...writeOffRoutes];
export { invoiceEvents } from './invoices.events.ts';
export {
  createDocument,
  createInvoice,
  getInvoice,
  retireCompanyDocuments,
  type SalesCtx,
  type SystemActor,
} from './invoices.service.ts';
export { DOCUMENT_TYPES, type DocumentType } from './invoices.tables.ts';
export { type CounterType, takeNumber } from './numbering.ts';
export { recordPayment } from './payments.ts';
export { recurringRoutes } from './recurring.routes.ts';
export {
  RECURRING_JOB_OPTIONS,
  RECURRING_QUEUE,
  type RecurringJob,
  refusable,
  runMoment,
  runRecurring,
} from './recurring.run.ts';
export { deleteInvoice, releaseInvoice } from './release.ts';
export { settingsRoutes } from './settings.routes.ts';
