// POST /webhooks/gatewayb/invoice/{tenantId}: gateway B's signed webhooks (Yoco-style events,
// Standard Webhooks). The only credential is the signature, verified over the raw body as
// received (binaryBody hands it over untouched). A refused delivery is filed and committed
// before the problem is answered, so the inbox shows every attempt.
import { Type } from 'typebox';
import { withTenant } from '../../platform/db/tenant.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { uuid } from '../../platform/http/schema-basics.ts';
import { receiveGatewayB } from './gateway-b.inbound.ts';
import { NotificationStatus } from './notifications.schemas.ts';

/** Yoco's events are small; anything larger is not one of them. */
const BODY_LIMIT = 64 * 1024;

export const gatewayBRoutes: AnyRoute[] = [
  defineRoute({
    auth: 'none',
    tag: 'Payment notifications',
    module: 'invoices',
    access: 'write',
    method: 'POST',
    path: '/webhooks/gatewayb/invoice/{tenantId}',
    operationId: 'receiveGatewayBWebhook',
    binaryBody: ['application/json'],
    bodyLimit: BODY_LIMIT,
    errors: ['SIGNATURE_INVALID', 'REFERENCE_MISMATCH', 'NOT_FOUND', 'VALIDATION_FAILED', 'UNAVAILABLE'],
    summary: "Gateway B's webhook for a business (payment.succeeded, refund.succeeded, ...)",
    description:
      'Called by gateway B, not by API clients. The business in the path routes the call only (spec Payments ' +
      'rule 2): the Standard Webhooks signature (webhook-id, webhook-timestamp within 5 minutes, ' +
      'webhook-signature) must verify with a gateway B webhook secret the business stored (401 ' +
      'SIGNATURE_INVALID), and the checkout metadata echoed back must name this business and one of its payment ' +
      'links for the invoice it names (409 REFERENCE_MISMATCH). Both or refused; every call is filed in the ' +
      'payment notifications inbox. A retry of an event already taken (the same webhook-id) is filed as a ' +
      'duplicate and answered 200. payment.succeeded is recorded against its invoice when within the tolerance ' +
      'of what is due (else it waits in the review queue); refund.succeeded of a whole payment reverses it. ' +
      'Other events are filed and dismissed. Unknown fields are ignored. 503 when a stored secret will not ' +
      'decrypt (the gateway retries).',
    params: Type.Object({ tenantId: uuid({ description: 'The business' }) }, { additionalProperties: false }),
    response: {
      200: Type.Object(
        {
          id: uuid({ description: 'The notification filed in the inbox' }),
          status: NotificationStatus,
        },
        { description: 'Received and filed (matched, waiting in review, duplicate or dismissed)' },
      ),
    },
    handler: async ({ params, body, headers }, ctx) => {
      const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const received = await withTenant(ctx.root, params.tenantId, (tx) =>
        receiveGatewayB(tx, ctx.deps, params.tenantId, {
          raw,
          headers,
          contentType: headers['content-type'] ?? null,
          sourceIp: ctx.ip,
        }),
      );
      // The refused notification is committed; now the problem is answered.
      if (received.problem) throw received.problem;
      return received.notification;
    },
  }),
];
