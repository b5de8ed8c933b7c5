// POST /webhooks/gatewaya/itn/{tenantId}: gateway A's ITN. (Stub: built by the gateway A work
// of issue 18.)
import type { AnyRoute } from '../../../platform/http/catalogue.ts';

export const gatewayARoutes: AnyRoute[] = [];
