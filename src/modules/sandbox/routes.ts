// The sandbox module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).

export { sandboxRoutes } from './sandbox.routes.ts';
