// The billing module's public surface: plan, entitlements and the set-up checklist.
export { setupProgressRoutes } from './setup-progress.routes.ts';
