// The online-payments module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { gatewayARoutes } from './gateway-a.routes.ts';
import { gatewayBRoutes } from './gateway-b.routes.ts';
import { paymentLinkRoutes } from './links.routes.ts';
import { gatewayRoutes, notificationRoutes } from './online.routes.ts';
import { payPageRoutes } from './pay-page.routes.ts';

export const onlinePaymentRoutes: AnyRoute[] = [
  ...gatewayRoutes,
  ...paymentLinkRoutes,
  ...payPageRoutes,
  ...gatewayARoutes,
  ...gatewayBRoutes,
  ...notificationRoutes,
];
