// Routes of payment links: POST/GET /api/invoices/{id}/payment-links and revoking one.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { PaymentLink, PaymentLinkCreate, PaymentLinkParams } from './links.schemas.ts';
import { createLink, getLink, listLinks, revokeLink } from './links.service.ts';

// Who may do what with online payments: the invoices module's read and write (DECISIONS.md
// puts /api/payment-gateways under invoices; the inbox and links go with it).
const { read: onlineRead, write: onlineWrite } = routeGroup({ module: 'invoices', companyScoped: true });

const links = { tag: 'Payment links' } as const;

export const paymentLinkRoutes: AnyRoute[] = [
  defineRoute({
    ...links,
    ...onlineWrite,
    method: 'POST',
    path: '/api/invoices/{id}/payment-links',
    operationId: 'createPaymentLink',
    errors: [
      'NOT_RECEIVABLE',
      'NOT_OPEN',
      'ALREADY_PAID',
      'GATEWAY_UNAVAILABLE',
      'CURRENCY_NOT_SUPPORTED',
      'UNPROCESSABLE',
      'CONFLICT',
      'UNAVAILABLE',
    ],
    summary: 'Make a payment link for what the invoice has due now: a public page the customer pays on',
    description:
      'The link is for the amount due now, in rand only: a foreign-currency document is 422 ' +
      'CURRENCY_NOT_SUPPORTED. gateway defaults to the first that can take money (gatewaya, then gatewayb); a ' +
      'gateway that cannot (no or half-finished credentials) is 409 GATEWAY_UNAVAILABLE with the reason. A draft ' +
      'or void document is 409 NOT_OPEN, a paid one 409 ALREADY_PAID, a document that takes no payments 409 ' +
      'NOT_RECEIVABLE. Gateway B: a checkout is made at the gateway (its Idempotency-Key is the link id); the ' +
      'gateway refusing the secret key or the checkout is 422, the gateway unreachable 503. Gateway A: the form ' +
      'is signed when the page is opened. expiresAt defaults to 30 days from now. 201; 200 with the link when ' +
      'clientId was already used.',
    params: IdParams,
    body: PaymentLinkCreate,
    bodyOptional: true,
    response: { 201: PaymentLink, 200: PaymentLink },
    handler: async ({ params, body }, ctx) => createLink(ctx, params.id, body),
  }),
  defineRoute({
    ...links,
    ...onlineRead,
    method: 'GET',
    path: '/api/invoices/{id}/payment-links',
    operationId: 'listPaymentLinks',
    summary: "The document's payment links, newest first (bare array)",
    params: IdParams,
    response: { 200: Type.Array(PaymentLink) },
    handler: async ({ params }, ctx) => listLinks(ctx, params.id),
  }),
  defineRoute({
    ...links,
    ...onlineRead,
    method: 'GET',
    path: '/api/invoices/{id}/payment-links/{linkId}',
    operationId: 'getPaymentLink',
    summary: 'One payment link of the document',
    params: PaymentLinkParams,
    response: { 200: PaymentLink },
    handler: async ({ params }, ctx) => getLink(ctx, params.id, params.linkId),
  }),
  defineRoute({
    ...links,
    ...onlineWrite,
    method: 'POST',
    path: '/api/invoices/{id}/payment-links/{linkId}/revoke',
    operationId: 'revokePaymentLink',
    errors: ['LINK_NOT_ACTIVE'],
    summary: 'Revoke a payment link: its page stops taking payment and says so',
    description: 'A link revoked or expired already is 409 LINK_NOT_ACTIVE.',
    params: PaymentLinkParams,
    response: { 200: PaymentLink },
    handler: async ({ params }, ctx) => revokeLink(ctx, params.id, params.linkId),
  }),
];
