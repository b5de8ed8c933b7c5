// The billing module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).

export { entitlementRoutes } from './entitlements.routes.ts';
export { setupProgressRoutes } from './setup-progress.routes.ts';
