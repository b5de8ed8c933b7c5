// The invoices module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { invoiceRoutes as documentRoutes } from './invoices.routes.ts';
import { writeOffRoutes } from './write-off.routes.ts';

export { recurringRoutes } from './recurring.routes.ts';
export { settingsRoutes } from './settings.routes.ts';

/** The routes of sales documents and what is done to them. */
export const invoiceRoutes: AnyRoute[] = [...documentRoutes, ...writeOffRoutes];
