// The sandbox module's public surface: its routes.
export { sandboxRoutes } from './sandbox.routes.ts';
