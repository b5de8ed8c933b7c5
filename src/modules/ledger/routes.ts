// The ledger module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).

export { accountRoutes } from './accounts.routes.ts';
export { costCentreRoutes } from './cost-centres.routes.ts';
export { journalRoutes } from './journals.routes.ts';
