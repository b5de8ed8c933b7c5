// Online payments (issue 18): the gateways, payment links and the pay page, the inbound
// notifications and the webhook inbox. Every route of it, for the catalogue.
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
