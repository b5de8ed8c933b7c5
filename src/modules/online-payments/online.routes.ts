// Routes of online payments owned here: the gateways' credentials and availability, and the
// webhook inbox with its review queue. Payment links, the pay page and the inbound
// notifications have route files of their own (index.ts gathers them).

import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { disconnectGateway, listGateways, setGatewayCredentials } from './gateways.service.ts';
import {
  GatewayParams,
  NotificationDismiss,
  NotificationListQuery,
  NotificationMatch,
  PaymentGateway,
  PaymentGatewayCredentials,
  PaymentNotification,
} from './notifications.schemas.ts';
import {
  dismissNotification,
  getNotification,
  listNotifications,
  matchNotification,
} from './notifications.service.ts';

// Who may do what with online payments: the invoices module's read and write (DECISIONS.md
// puts /api/payment-gateways under invoices; the inbox and links go with it).
const { read: onlineRead, write: onlineWrite } = routeGroup({ module: 'invoices', companyScoped: true });

const gateways = { tag: 'Payment gateways' } as const;
const inbox = { tag: 'Payment notifications' } as const;

export const gatewayRoutes: AnyRoute[] = [
  defineRoute({
    ...gateways,
    ...onlineRead,
    method: 'GET',
    path: '/api/payment-gateways',
    operationId: 'listPaymentGateways',
    summary: 'The payment gateways, whether each can take money, and the reason in words when not',
    description:
      'Every gateway is listed, set up or not. A gateway is unavailable with no credentials, with half-finished ' +
      'ones (gateway A without its merchant key; gateway B with a secret key but no webhook signing secret), or ' +
      "when the stored credentials will not decrypt with this server's SECRETS_KEY. Secrets are never answered: " +
      'only whether each is held.',
    response: { 200: Type.Array(PaymentGateway) },
    handler: async (_input, ctx) => listGateways(ctx),
  }),
  defineRoute({
    ...gateways,
    ...onlineWrite,
    method: 'PUT',
    path: '/api/payment-gateways/{gateway}',
    operationId: 'setPaymentGatewayCredentials',
    errors: ['CONFLICT', 'UNAVAILABLE'],
    summary: "Set the company's credentials at a gateway (they replace the stored ones)",
    description:
      'Gateway A takes merchantId, merchantKey and (when set at the gateway) passphrase; gateway B takes secretKey ' +
      "and webhookSecret (whsec_…). The other gateway's fields are refused (400). A field left out is cleared, so " +
      'what is stored is exactly what was sent; a half-finished set is kept and reported unavailable with the ' +
      'reason. Secrets are sealed with SECRETS_KEY (503 naming it when this server has none) and never answered ' +
      'back. The first set makes the gateway its clearing account (a bank account, the next free bank code from 1010). A merchant ' +
      'id another company of the business holds is 409.',
    params: GatewayParams,
    body: PaymentGatewayCredentials,
    response: { 200: PaymentGateway },
    handler: async ({ params, body }, ctx) => {
      const foreign =
        params.gateway === 'gatewaya'
          ? (['secretKey', 'webhookSecret'] as const)
          : (['merchantId', 'merchantKey', 'passphrase'] as const);
      for (const f of foreign)
        if (body[f] !== undefined) throw badRequest(f, `is not a credential of ${params.gateway}`);
      return setGatewayCredentials(ctx, params.gateway, body);
    },
  }),
  defineRoute({
    ...gateways,
    ...onlineWrite,
    method: 'DELETE',
    path: '/api/payment-gateways/{gateway}',
    operationId: 'disconnectPaymentGateway',
    summary: "Clear the company's credentials at a gateway (it can no longer take money)",
    description:
      'The clearing account and every payment recorded through the gateway stay. Links already made stop working: ' +
      'their page says the gateway is unavailable.',
    params: GatewayParams,
    response: { 200: PaymentGateway },
    handler: async ({ params }, ctx) => disconnectGateway(ctx, params.gateway),
  }),
];

export const notificationRoutes: AnyRoute[] = [
  defineRoute({
    ...inbox,
    ...onlineRead,
    method: 'GET',
    path: '/api/payment-notifications',
    operationId: 'listPaymentNotifications',
    summary:
      'The webhook inbox: every gateway notification, trusted or not, with its checks and outcome (paged)',
    description:
      'status=review is the review queue: trusted payments not matched confidently (amount outside the tolerance, ' +
      'no invoice or more than one). Refused notifications (a signature that did not verify, a reference naming ' +
      'another tenant, the gateway answering INVALID) are listed too, with what failed; they never move money.',
    query: NotificationListQuery,
    response: { 200: Paged(PaymentNotification) },
    handler: async ({ query }, ctx) => listNotifications(ctx, query),
  }),
  defineRoute({
    ...inbox,
    ...onlineRead,
    method: 'GET',
    path: '/api/payment-notifications/{id}',
    operationId: 'getPaymentNotification',
    summary: 'One notification of the inbox, with its raw body, checks and outcome',
    params: IdParams,
    response: { 200: PaymentNotification },
    handler: async ({ params }, ctx) => getNotification(ctx, params.id),
  }),
  defineRoute({
    ...inbox,
    ...onlineWrite,
    method: 'POST',
    path: '/api/payment-notifications/{id}/match',
    operationId: 'matchPaymentNotification',
    errors: ['NOT_IN_REVIEW', 'NOT_OPEN', 'NOT_RECEIVABLE', 'ALREADY_PAID', 'PERIOD_LOCKED'],
    summary: 'Resolve a notification in the review queue by matching it to an invoice',
    description:
      'review → matched: the payment is recorded as the gateway reported it, into the gateway clearing account ' +
      '(more than is due leaves the customer a credit, as any payment does). Only a trusted payment waiting in ' +
      'review: anything else is 409 NOT_IN_REVIEW.',
    params: IdParams,
    body: NotificationMatch,
    response: { 200: PaymentNotification },
    handler: async ({ params, body }, ctx) => matchNotification(ctx, params.id, body.invoiceId),
  }),
  defineRoute({
    ...inbox,
    ...onlineWrite,
    method: 'POST',
    path: '/api/payment-notifications/{id}/dismiss',
    operationId: 'dismissPaymentNotification',
    errors: ['NOT_IN_REVIEW'],
    summary: 'Set a notification in the review queue aside, with the reason (nothing is recorded)',
    params: IdParams,
    body: NotificationDismiss,
    response: { 200: PaymentNotification },
    handler: async ({ params, body }, ctx) => dismissNotification(ctx, params.id, body.reason),
  }),
];
