// Gateway B's webhooks (Yoco-style events, Standard Webhooks signatures) received for a tenant.
// The tenant in the path routes only (spec Payments rule 2): the signature must verify with a
// webhook secret the tenant stored (the one that verifies names the company), and the
// reference echoed back (the checkout's metadata) must name this tenant and one of its links.
// Everything is filed in the inbox, trusted or not; only a trusted event moves money.
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { Tx } from '../../platform/db/tenant.ts';
import type { AppDeps } from '../../platform/http/context.ts';
import { badRequest, conflict, HttpError, notFound, unauthorized } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { takeRefund } from './gateway-b.refund.ts';
import { type GatewayAccountRow, missingCredentials, openGatewayB } from './gateways.service.ts';
import {
  fileNotification,
  type NotificationFiling,
  seenBefore,
  takeTrustedPayment,
} from './notifications.service.ts';
import type { NotificationCheck, NotificationStatus } from './online.tables.ts';

export interface Delivery {
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  contentType: string | null;
  sourceIp: string | null;
}

/** What the route answers: the notification filed, or a problem (after the filing commits). */
export interface Received {
  notification: { id: string; status: NotificationStatus };
  problem?: HttpError;
}

/** seenBefore's "except this one": nothing is filed yet, so no id to leave out. */
const NOTHING_YET = '00000000-0000-0000-0000-000000000000';

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerOf(h: Delivery['headers'], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

interface Verified {
  account: GatewayAccountRow | null;
  detail: string;
  /** A stored secret could not be opened (SECRETS_KEY): the gateway should retry later. */
  unopened: boolean;
}

/** Verifies the delivery with each gateway B webhook secret the tenant stored. */
async function verifySignature(db: Tx, deps: AppDeps, tenantId: string, d: Delivery): Promise<Verified> {
  const accounts = await db
    .selectFrom('payment_gateway_accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('gateway', '=', 'gatewayb')
    .orderBy('created_at')
    .execute();
  const headers: Record<string, string> = {};
  for (const name of SIGNATURE_HEADERS) {
    const v = headerOf(d.headers, name);
    if (v !== undefined) headers[name] = v;
  }
  const usable = accounts.filter((a) => a.webhook_secret_sealed && !missingCredentials(a));
  if (usable.length === 0)
    return {
      account: null,
      unopened: false,
      detail: accounts.some((a) => a.secret_key_sealed)
        ? 'Gateway B is half-configured in this business (no webhook signing secret): nothing to verify with'
        : 'No gateway B webhook signing secret is stored in this business',
    };
  let unopened = false;
  let why = '';
  for (const account of usable) {
    let secret: string;
    try {
      secret = openGatewayB(deps, account).webhookSecret;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      unopened = true;
      continue;
    }
    try {
      // Verified over the bytes as received; the library refuses a timestamp 5 minutes off.
      new Webhook(secret).verify(d.raw, headers, { jsonParse: false });
      return {
        account,
        unopened: false,
        detail: 'Standard Webhooks signature verified with the stored secret',
      };
    } catch (err) {
      why = (err as Error).message;
    }
  }
  return {
    account: null,
    unopened,
    detail: unopened
      ? "A stored webhook secret cannot be decrypted with this server's SECRETS_KEY, and no other verifies"
      : `Verified with none of the stored webhook secrets: ${why}`,
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** PostgreSQL text (and jsonb) holds no NUL: a forged body may, and is still filed. */
const storable = (s: string) => s.replaceAll('\u0000', '\uFFFD');
const text = (v: unknown) => (typeof v === 'string' ? storable(v) : null);

/** The whole body, read once the signature has verified; a field that is not as Yoco sends it is named. */
function readEvent(raw: string) {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw badRequest('body', 'The body is not JSON');
  }
  if (!isObject(body) || typeof body.type !== 'string') throw badRequest('type', 'The event has no type');
  const payload = isObject(body.payload) ? body.payload : {};
  const metadata = isObject(payload.metadata) ? payload.metadata : {};
  return { type: body.type, payload, metadata };
}

function centsOf(payload: Json) {
  const cents = payload.amount;
  if (typeof cents !== 'number' || !Number.isSafeInteger(cents) || cents < 0)
    throw badRequest('payload.amount', 'The amount must be whole cents (an integer, 0 or more)');
  // Cents / 100 exactly, in decimal: never a float division.
  return money(cents).dividedBy(100);
}

/** A gateway B delivery for the tenant, filed and (when trusted) acted on, in one transaction. */
export async function receiveGatewayB(
  db: Tx,
  deps: AppDeps,
  tenantId: string,
  d: Delivery,
): Promise<Received> {
  const tenant = await db.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
  if (!tenant) throw notFound('Tenant');
  const raw = d.raw.toString('utf8');
  const eventId = headerOf(d.headers, 'webhook-id')?.slice(0, 200) ?? null;
  const rawBody = storable(raw);
  const base: NotificationFiling = {
    gateway: 'gatewayb',
    rawBody,
    contentType: d.contentType,
    sourceIp: d.sourceIp,
    eventId,
  };
  const refuse = async (filing: Partial<NotificationFiling>, problem: HttpError): Promise<Received> => {
    const id = await fileNotification(db, tenantId, {
      ...base,
      ...filing,
      trusted: false,
      status: 'refused',
      outcome: `Refused: ${problem.message}`,
    });
    return { notification: { id, status: 'refused' }, problem };
  };

  const verified = await verifySignature(db, deps, tenantId, d);
  const checks: NotificationCheck[] = [
    { check: 'signature', passed: !!verified.account, detail: verified.detail },
  ];
  if (!verified.account) {
    const problem = verified.unopened
      ? new HttpError(503, verified.detail)
      : unauthorized(verified.detail, 'SIGNATURE_INVALID');
    return refuse({ checks }, problem);
  }
  const account = verified.account;
  const company = { companyId: account.company_id, gatewayAccountId: account.id };

  let event: ReturnType<typeof readEvent>;
  try {
    event = readEvent(raw);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return refuse(
      { ...company, checks: [...checks, { check: 'body', passed: false, detail: err.message }] },
      err,
    );
  }
  const kind =
    event.type === 'payment.succeeded' ? 'payment' : event.type === 'refund.succeeded' ? 'refund' : 'other';
  const type = storable(event.type).slice(0, 200);
  const { payload, metadata } = event;
  const externalPaymentId = text(payload.id)?.slice(0, 200) ?? null;
  const described = { ...base, ...company, kind, gatewayStatus: type, externalPaymentId } as const;

  // One delivery of an event at a time (retries race): the unique index stands behind it.
  await sql`select pg_advisory_xact_lock(hashtext(${`gatewayb:${tenantId}:${eventId}`}))`.execute(db);
  const prior =
    (await seenBefore(db, tenantId, 'gatewayb', { kind, eventId }, NOTHING_YET)) ??
    (kind === 'other'
      ? undefined
      : await seenBefore(db, tenantId, 'gatewayb', { kind, externalPaymentId }, NOTHING_YET));

  if (kind === 'other') {
    if (prior) return duplicate(db, tenantId, described, checks, prior.id);
    // An event this service does not act on (refund.failed, ...): filed, dismissed by the system.
    const id = await fileNotification(db, tenantId, {
      ...described,
      trusted: true,
      checks,
      status: 'dismissed',
      outcome: `Nothing to do for ${type}`,
    });
    await db
      .updateTable('payment_notifications')
      .set({
        resolved_by_type: 'system',
        resolved_at: deps.now(),
        dismiss_reason: `${type}: not acted on`,
      })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    return { notification: { id, status: 'dismissed' } };
  }

  // Rule 2: the reference echoed back must name this tenant and one of its links (of this company).
  const checkoutId = text(metadata.checkoutId);
  const invoiceId = text(metadata.invoiceId);
  const namesTenant = metadata.tenantId === tenantId;
  checks.push({
    check: 'tenant',
    passed: namesTenant,
    detail: namesTenant
      ? 'The metadata names this business'
      : `The metadata names ${text(metadata.tenantId) ? 'another business' : 'no business'}`,
  });
  const link =
    namesTenant && checkoutId
      ? await db
          .selectFrom('payment_links')
          .select(['id', 'invoice_id', 'company_id'])
          .where('tenant_id', '=', tenantId)
          .where('gateway', '=', 'gatewayb')
          .where('checkout_id', '=', checkoutId)
          .executeTakeFirst()
      : undefined;
  const linked = !!link && link.invoice_id === invoiceId && link.company_id === account.company_id;
  if (namesTenant)
    checks.push({
      check: 'checkout',
      passed: linked,
      detail: linked
        ? `Checkout ${checkoutId} is a payment link of this company for the invoice named`
        : `Checkout ${checkoutId ?? '(none)'} is no payment link of this company for invoice ${invoiceId ?? '(none)'}`,
    });
  const reference = checkoutId?.slice(0, 200) ?? null;
  if (!namesTenant || !linked || !link)
    return refuse(
      { ...described, reference, checks },
      conflict('The reference echoed back does not name a payment link of this business', {
        code: 'REFERENCE_MISMATCH',
      }),
    );

  let amount: ReturnType<typeof centsOf>;
  try {
    amount = centsOf(payload);
    if (!externalPaymentId) throw badRequest('payload.id', `The ${kind} has no id`);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return refuse(
      { ...described, reference, checks: [...checks, { check: 'body', passed: false, detail: err.message }] },
      err,
    );
  }
  if (prior) return duplicate(db, tenantId, { ...described, reference }, checks, prior.id);

  const currency = text(payload.currency)?.slice(0, 3) ?? 'ZAR';
  const id = await fileNotification(db, tenantId, {
    ...described,
    reference,
    amount: amount.toFixed(2),
    currency,
    linkId: link.id,
    invoiceId: link.invoice_id,
    trusted: true,
    checks,
  });
  const taken =
    kind === 'payment'
      ? await takeTrustedPayment(db, deps, tenantId, {
          notificationId: id,
          account,
          invoiceId: link.invoice_id,
          amount,
          currency,
          externalPaymentId: externalPaymentId!,
          checks,
        })
      : await takeRefund(db, deps, tenantId, {
          notificationId: id,
          account,
          amount,
          paymentOf: text(payload.paymentId),
          checks,
        });
  return { notification: { id, status: taken.status } };
}

/** A retry of an event already taken (or another event of a payment already taken): filed, nothing done. */
async function duplicate(
  db: Tx,
  tenantId: string,
  filing: NotificationFiling,
  checks: NotificationCheck[],
  priorId: string,
): Promise<Received> {
  const id = await fileNotification(db, tenantId, {
    ...filing,
    trusted: true,
    checks: [...checks, { check: 'replay', passed: false, detail: `Already received as ${priorId}` }],
    status: 'duplicate',
    outcome: `A repeat of notification ${priorId}: nothing recorded again`,
  });
  return { notification: { id, status: 'duplicate' } };
}
