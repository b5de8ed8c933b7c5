// POST /webhooks/gatewaya/itn/{tenantId}: gateway A's ITN (PayFast-style). The body is kept as
// received (its signature is over the bytes, not over values decoded and encoded again), filed
// in the tenant's inbox, and its checks queued in the same transaction; the answer is 200 at
// once, as the gateway expects (it retries otherwise). The checks need a call to the gateway,
// so they run in the job (gateway-a.itn.ts). The only credential is the signature: nothing
// here trusts the body.
import { Type } from 'typebox';
import { withTenant } from '../../platform/db/tenant.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { HttpError, notFound } from '../../platform/http/problem.ts';
import { uuid } from '../../platform/http/schema-basics.ts';
import { GATEWAY_A_ITN_QUEUE, type GatewayAItnJob, itnFieldsOf } from './gateway-a.itn.ts';
import { fileNotification } from './notifications.service.ts';

/** An ITN is a few hundred bytes; 64 KiB leaves room and bounds what is stored. */
export const ITN_BODY_LIMIT = 64 * 1024;

const ITN_TYPES = ['application/x-www-form-urlencoded'] as const;

/** A rand amount as the gateway writes it ("1150.00", "-26.45"); anything else is not stored as one. */
const AMOUNT = /^-?\d{1,15}(\.\d{1,2})?$/;

/** A field as text for a column: trimmed and bounded (the raw body keeps it whole). */
const textOf = (v: string | undefined, max = 200) => (v?.trim() ? v.trim().slice(0, max) : null);

export const gatewayARoutes: AnyRoute[] = [
  defineRoute({
    auth: 'none',
    tag: 'Payment notifications',
    module: 'invoices',
    access: 'write',
    method: 'POST',
    path: '/webhooks/gatewaya/itn/{tenantId}',
    operationId: 'receiveGatewayAItn',
    binaryBody: ITN_TYPES,
    bodyLimit: ITN_BODY_LIMIT,
    audit: false,
    summary: "Gateway A's payment notification (ITN), posted by the gateway",
    description:
      'Form-urlencoded as the gateway posts it (at most 64 KiB), fields the service does not read ignored. The ' +
      'notification is filed in the webhook inbox as received and answered 200 at once; then the job worker checks ' +
      'it, in order: merchant_id is a gateway A account of this tenant, the signature over the raw body with its ' +
      "passphrase, the gateway's validate endpoint confirming it (retried while unreachable), the payment id not " +
      'seen before, payment_status COMPLETE, and m_payment_id naming a payment link of this tenant. Only then is ' +
      'the payment trusted and recorded (or left for review). An unknown tenant is a 404.',
    params: Type.Object(
      { tenantId: uuid({ description: 'The business the notification is for' }) },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object(
        { id: uuid({ description: 'The notification, as filed in the inbox' }) },
        { additionalProperties: false },
      ),
    },
    handler: async ({ params, body, headers }, ctx) => {
      // JSON and plain text have parsers app-wide: anything but the form's bytes is refused here.
      if (body !== undefined && body !== null && !Buffer.isBuffer(body))
        throw new HttpError(415, `The body must be ${ITN_TYPES[0]}`, { code: 'UNSUPPORTED_MEDIA_TYPE' });
      const rawBody = Buffer.isBuffer(body) ? body.toString('utf8') : '';
      const f = itnFieldsOf(rawBody);
      const amount = f.get('amount_gross')?.trim();
      const fee = f.get('amount_fee')?.trim();
      return withTenant(ctx.root, params.tenantId, async (tx) => {
        const tenant = await tx
          .selectFrom('tenants')
          .select('id')
          .where('id', '=', params.tenantId)
          .executeTakeFirst();
        if (!tenant) throw notFound('Tenant');
        const id = await fileNotification(tx, params.tenantId, {
          gateway: 'gatewaya',
          rawBody,
          contentType: textOf(headers['content-type']),
          sourceIp: ctx.ip,
          externalPaymentId: textOf(f.get('pf_payment_id')),
          reference: textOf(f.get('m_payment_id')),
          gatewayStatus: textOf(f.get('payment_status')),
          amount: amount && AMOUNT.test(amount) && !amount.startsWith('-') ? amount : null,
          // The gateway reports its fee as a negative amount; the inbox keeps what it charged.
          fee: fee && AMOUNT.test(fee) ? (fee.startsWith('-') ? fee.slice(1) : fee) : null,
          currency: 'ZAR',
          outcome: 'Received: waiting for its checks',
        });
        await ctx.deps.jobs.sendInTx(tx, GATEWAY_A_ITN_QUEUE, {
          tenantId: params.tenantId,
          notificationId: id,
        } satisfies GatewayAItnJob);
        return { id };
      });
    },
  }),
];
