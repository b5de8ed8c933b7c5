// POST /webhooks/gatewayb/invoice/{tenantId}: gateway B's signed webhooks. (Stub: built by the
// gateway B work of issue 18.)
import type { AnyRoute } from '../../../platform/http/catalogue.ts';

export const gatewayBRoutes: AnyRoute[] = [];
