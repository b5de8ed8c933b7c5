// The billing module's public surface: plan, entitlements and the set-up checklist.
export { entitlementRoutes } from './entitlements.routes.ts';
export { setupProgressRoutes } from './setup-progress.routes.ts';
