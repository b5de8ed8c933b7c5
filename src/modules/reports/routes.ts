// The reports module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).

export { reportRoutes } from './reports.routes.ts';
