// Gateway A's ITN, checked in the job worker (the inbound route files it and answers 200 at
// once: confirming it needs a call to the gateway). The checks, each recorded in the
// notification's `checks`, in order; the first failure ends it:
//   1. merchant: merchant_id is a gateway A account of this tenant (another tenant's, or none:
//      refused);
//   2. signature: over the raw body as received, with that merchant's passphrase;
//   3. validate: the gateway confirms the parameter string (POST {base}/eng/query/validate,
//      outside any transaction). INVALID: refused. Unreachable or a 5xx: the job throws and is
//      retried on its schedule; the row stays 'received';
//   4. replay: the gateway's payment id (pf_payment_id) taken before: a duplicate of the first;
//   5. payment_status: COMPLETE goes on; anything else is trusted but only filed (dismissed by
//      the system, nothing recorded);
//   6. reference: m_payment_id a payment link of this tenant, and custom_str1 this tenant: its
//      invoice; else none (the payment waits in the review queue).
// Then takeTrustedPayment records it (or files it for review). Notifications of one merchant are
// serialised by locking its account row, so two runs at once cannot both take one payment.
import { fetch } from 'undici';
import { type Tx, withTenant } from '../../platform/db/tenant.ts';
import type { AppDeps } from '../../platform/http/context.ts';
import type { JobContext, RegisterOptions } from '../../platform/jobs/jobs.ts';
import { money } from '../../platform/money/money.ts';
import { itnSignatureValid, splitItn } from './gateway-a.protocol.ts';
import { type GatewayAccountRow, missingCredentials, openGatewayA } from './gateways.service.ts';
import {
  type NotificationRow,
  notificationRow,
  seenBefore,
  takeTrustedPayment,
  updateNotification,
} from './notifications.service.ts';
import type { NotificationCheck } from './online.tables.ts';

export const GATEWAY_A_ITN_QUEUE = 'gatewaya-itn';

export interface GatewayAItnJob {
  tenantId: string;
  notificationId: string;
}

/** Retries while the gateway's validate endpoint is away: 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, 12 h. */
export const GATEWAY_A_ITN_RETRY = [30, 120, 600, 1800, 7200, 21_600, 43_200];

export const GATEWAY_A_ITN_JOB_OPTIONS: RegisterOptions = {
  retry: { schedule: GATEWAY_A_ITN_RETRY },
  // Runs wait on the gateway (15 s a call), not on this process.
  concurrency: 4,
  expireInSeconds: 120,
  // A payer waits on the return page for the invoice to show paid: workers wake at the commit.
  notify: true,
};

/** The validate call's time allowed (connect, send, answer). */
export const VALIDATE_TIMEOUT_MS = 15_000;

/** The gateway's validate endpoint could not answer: the job is retried. */
export class GatewayAUnreachable extends Error {}

/** The ITN's fields as posted (a name given twice: the first). */
export function itnFieldsOf(rawBody: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(rawBody)) if (!out.has(k)) out.set(k, v);
  return out;
}

/** The job handler of GATEWAY_A_ITN_QUEUE. */
export function runGatewayAItn(deps: AppDeps) {
  return async (job: JobContext<GatewayAItnJob>): Promise<void> => {
    await checkItn(deps, job.data);
  };
}

type Early =
  | { done: true }
  | { done: false; account: GatewayAccountRow; checks: NotificationCheck[]; paramString: string };

/** Checks an ITN filed as received, to its outcome. */
export async function checkItn(deps: AppDeps, job: GatewayAItnJob): Promise<void> {
  const { tenantId, notificationId } = job;
  // 1 and 2, from what is stored: no call out.
  const early = await withTenant(deps.database.db, tenantId, (tx) =>
    merchantAndSignature(deps, tx, tenantId, notificationId),
  );
  if (early.done) return;
  const checks = early.checks;
  // 3: the gateway's word, outside any transaction (it may take seconds, or not come).
  let valid: boolean;
  try {
    valid = await validateAtGateway(deps.config.gatewayABaseUrl, early.paramString);
  } catch (err) {
    if (!(err instanceof GatewayAUnreachable)) throw err;
    await withTenant(deps.database.db, tenantId, (tx) =>
      updateNotification(tx, tenantId, notificationId, {
        checks: [...checks, { check: 'validate', passed: false, detail: err.message }],
        outcome: `Waiting for the gateway's confirmation (${err.message}): tried again later`,
      }),
    );
    throw err;
  }
  checks.push({
    check: 'validate',
    passed: valid,
    detail: valid ? 'The gateway confirmed the notification (VALID)' : 'The gateway answered INVALID',
  });
  await withTenant(deps.database.db, tenantId, async (tx) => {
    if (!valid)
      return refuse(tx, tenantId, notificationId, checks, 'The gateway did not confirm it: refused');
    await takeItn(deps, tx, tenantId, notificationId, early.account.id, checks);
  });
}

async function refuse(
  tx: Tx,
  tenantId: string,
  id: string,
  checks: NotificationCheck[],
  outcome: string,
): Promise<void> {
  await updateNotification(tx, tenantId, id, { status: 'refused', trusted: false, checks, outcome });
}

async function merchantAndSignature(deps: AppDeps, tx: Tx, tenantId: string, id: string): Promise<Early> {
  const row = await notificationRow(tx, tenantId, id, true);
  // Gone, or finished by an earlier run: nothing to do.
  if (row?.status !== 'received') return { done: true };
  const fields = itnFieldsOf(row.raw_body);
  const merchantId = fields.get('merchant_id') ?? '';
  const checks: NotificationCheck[] = [];
  const account = merchantId
    ? await tx
        .selectFrom('payment_gateway_accounts')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('gateway', '=', 'gatewaya')
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst()
    : undefined;
  const missing = account ? missingCredentials(account) : null;
  if (!account || missing) {
    checks.push({
      check: 'merchant',
      passed: false,
      detail: !merchantId
        ? 'The notification names no merchant_id'
        : account
          ? `Merchant ${merchantId}: ${missing}`
          : `Merchant ${merchantId} is not a gateway A account of this business`,
    });
    await refuse(tx, tenantId, id, checks, 'Not for a merchant of this business: refused');
    return { done: true };
  }
  checks.push({ check: 'merchant', passed: true, detail: `Merchant ${merchantId} of this business` });
  // A key that will not decrypt is a 503 here: thrown, so the job is tried again later.
  const { passphrase } = openGatewayA(deps, account);
  const signed = itnSignatureValid(row.raw_body, passphrase);
  const split = splitItn(row.raw_body);
  checks.push({
    check: 'signature',
    passed: signed,
    detail: signed
      ? `Signed with the merchant's ${passphrase ? 'passphrase' : 'details (no passphrase set)'}`
      : !split
        ? 'The notification carries no signature'
        : `The signature does not match the body${passphrase ? " with the merchant's passphrase" : ''}`,
  });
  if (!signed || !split) {
    await refuse(tx, tenantId, id, checks, 'The signature is not valid: refused');
    return { done: true };
  }
  return { done: false, account, checks, paramString: split.paramString };
}

/** POST the parameter string to the gateway's validate endpoint: true for VALID. */
export async function validateAtGateway(baseUrl: string, paramString: string): Promise<boolean> {
  let res: Awaited<ReturnType<typeof fetch>>;
  try {
    res = await fetch(`${baseUrl}/eng/query/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: paramString,
      signal: AbortSignal.timeout(VALIDATE_TIMEOUT_MS),
    });
  } catch (err) {
    throw new GatewayAUnreachable(`the gateway could not be reached: ${(err as Error).message}`);
  }
  const text = (await res.text()).trim();
  // Any status but 200 says nothing of the notification (the gateway down, a proxy between):
  // tried again later rather than refused.
  if (!res.ok) throw new GatewayAUnreachable(`the gateway's validate answered ${res.status}`);
  return text === 'VALID';
}

/** 4 to 6, then the payment recorded or filed for review; the merchant's row locked throughout. */
async function takeItn(
  deps: AppDeps,
  tx: Tx,
  tenantId: string,
  id: string,
  accountId: string,
  checks: NotificationCheck[],
): Promise<void> {
  const account = await tx
    .selectFrom('payment_gateway_accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const row = await notificationRow(tx, tenantId, id, true);
  if (row?.status !== 'received') return;
  const fields = itnFieldsOf(row.raw_body);
  const status = fields.get('payment_status') ?? '';
  const kind = status === 'COMPLETE' ? 'payment' : 'other';
  const pfPaymentId = row.external_payment_id;
  const known = { companyId: account.company_id, gatewayAccountId: account.id, kind } as const;
  const first = await seenBefore(tx, tenantId, 'gatewaya', { kind, externalPaymentId: pfPaymentId }, id);
  checks.push({
    check: 'replay',
    passed: !first,
    detail: first
      ? `Payment ${pfPaymentId} was notified before (notification ${first.id})`
      : pfPaymentId
        ? `Payment ${pfPaymentId} not seen before`
        : 'The notification carries no pf_payment_id',
  });
  if (first) {
    await updateNotification(tx, tenantId, id, {
      ...known,
      trusted: true,
      checks,
      status: 'duplicate',
      outcome: `A repeat of notification ${first.id} (${first.status}): nothing more recorded`,
    });
    return;
  }
  checks.push({
    check: 'payment_status',
    passed: kind === 'payment',
    detail: `payment_status ${status || 'absent'}`,
  });
  if (kind !== 'payment')
    return fileOther(deps, tx, tenantId, id, checks, { ...known, kind: 'other' }, status);
  const reference = await referenceOf(tx, tenantId, account, row, fields);
  checks.push(reference.check);
  await updateNotification(tx, tenantId, id, {
    ...known,
    trusted: true,
    checks,
    linkId: reference.linkId,
    invoiceId: reference.invoiceId,
  });
  if (row.amount === null) {
    checks.push({ check: 'amount', passed: false, detail: 'The notification carries no amount_gross' });
    await updateNotification(tx, tenantId, id, {
      checks,
      status: 'review',
      outcome: 'No amount: nothing can be recorded (dismiss it)',
    });
    return;
  }
  await takeTrustedPayment(tx, deps, tenantId, {
    notificationId: id,
    account,
    invoiceId: reference.invoiceId,
    amount: money(row.amount),
    fee: row.fee === null ? null : money(row.fee),
    currency: 'ZAR',
    externalPaymentId: pfPaymentId ?? id,
    checks,
  });
}

/** A trusted notification of something other than a completed payment: filed, nothing done. */
async function fileOther(
  deps: AppDeps,
  tx: Tx,
  tenantId: string,
  id: string,
  checks: NotificationCheck[],
  known: { companyId: string; gatewayAccountId: string; kind: 'other' },
  status: string,
): Promise<void> {
  await updateNotification(tx, tenantId, id, { ...known, trusted: true, checks });
  await tx
    .updateTable('payment_notifications')
    .set({
      status: 'dismissed',
      outcome: `The gateway reports ${status || 'no payment_status'}: not a completed payment, nothing recorded`,
      resolved_by_type: 'system',
      resolved_at: deps.now(),
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 6: the payment link m_payment_id names, when it is this tenant's (custom_str1) and the merchant's company's. */
async function referenceOf(
  tx: Tx,
  tenantId: string,
  account: GatewayAccountRow,
  row: NotificationRow,
  fields: Map<string, string>,
): Promise<{ linkId: string | null; invoiceId: string | null; check: NotificationCheck }> {
  const ref = row.reference ?? '';
  const none = (detail: string) => ({
    linkId: null,
    invoiceId: null,
    check: { check: 'reference', passed: false, detail },
  });
  if (fields.get('custom_str1') !== tenantId)
    return none(`custom_str1 ${fields.get('custom_str1') || '(absent)'} does not name this business`);
  if (!UUID.test(ref))
    return none(`m_payment_id ${ref || '(absent)'} is not a payment link of this business`);
  const link = await tx
    .selectFrom('payment_links')
    .select(['id', 'invoice_id', 'company_id', 'gateway'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', ref)
    .executeTakeFirst();
  if (link?.gateway !== 'gatewaya')
    return none(`m_payment_id ${ref} is not a gateway A payment link of this business`);
  if (link.company_id !== account.company_id)
    return none(`Payment link ${ref} belongs to another company than merchant ${account.merchant_id}`);
  return {
    linkId: link.id,
    invoiceId: link.invoice_id,
    check: { check: 'reference', passed: true, detail: `Payment link ${ref} of invoice ${link.invoice_id}` },
  };
}
