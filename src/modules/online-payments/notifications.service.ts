// The webhook inbox: every notification a payment gateway posts for a tenant, trusted or not,
// filed with its raw body, each check made of it and the outcome (spec States and
// transitions, "Inbound payment notification"). A trusted payment within the tolerance of what
// its one invoice has due is recorded (into the gateway's clearing account); anything else that
// is trusted waits in the review queue for a person to match it to an invoice or dismiss it.
// Untrusted notifications are filed as refused and never move money.

import type { Decimal } from 'decimal.js';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { dayOf } from '../../platform/dates/days.ts';
import type { Tx } from '../../platform/db/tenant.ts';
import type { AppDeps, TenantCtx } from '../../platform/http/context.ts';
import { pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { conflict, HttpError, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { money, toNumber } from '../../platform/money/money.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import {
  amountDue,
  lockInvoiceRow,
  RECEIVABLE_TYPES,
  recordPaymentCore,
  settlements,
} from '../invoices/index.ts';
import { ledgerCtxOf, post, systemAccount } from '../ledger/index.ts';
import { GATEWAY_LABELS, type GatewayAccountRow } from './gateways.service.ts';
import type { NotificationListQuery } from './notifications.schemas.ts';
import type {
  Gateway,
  NotificationCheck,
  NotificationKind,
  NotificationStatus,
  PaymentNotificationsTable,
} from './online.tables.ts';

export type NotificationRow = Selectable<PaymentNotificationsTable>;

/** What an inbound route knows of a notification when it files it. */
export interface NotificationFiling {
  gateway: Gateway;
  rawBody: string;
  contentType?: string | null | undefined;
  sourceIp?: string | null | undefined;
  kind?: NotificationKind | undefined;
  eventId?: string | null | undefined;
  externalPaymentId?: string | null | undefined;
  gatewayStatus?: string | null | undefined;
  amount?: string | null | undefined;
  fee?: string | null | undefined;
  currency?: string | null | undefined;
  reference?: string | null | undefined;
  companyId?: string | null | undefined;
  gatewayAccountId?: string | null | undefined;
  linkId?: string | null | undefined;
  invoiceId?: string | null | undefined;
  trusted?: boolean | undefined;
  checks?: NotificationCheck[] | undefined;
  status?: NotificationStatus | undefined;
  outcome?: string | undefined;
}

/** Files a notification in the tenant's inbox; answers its id. */
export async function fileNotification(db: Tx, tenantId: string, n: NotificationFiling): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto('payment_notifications')
    .values({
      tenant_id: tenantId,
      id,
      gateway: n.gateway,
      raw_body: n.rawBody,
      content_type: n.contentType ?? null,
      source_ip: n.sourceIp ?? null,
      kind: n.kind ?? 'payment',
      event_id: n.eventId ?? null,
      external_payment_id: n.externalPaymentId ?? null,
      gateway_status: n.gatewayStatus ?? null,
      amount: n.amount ?? null,
      fee: n.fee ?? null,
      currency: n.currency ?? null,
      reference: n.reference ?? null,
      company_id: n.companyId ?? null,
      gateway_account_id: n.gatewayAccountId ?? null,
      link_id: n.linkId ?? null,
      invoice_id: n.invoiceId ?? null,
      trusted: n.trusted ?? false,
      checks: JSON.stringify(n.checks ?? []),
      status: n.status ?? 'received',
      outcome: n.outcome ?? '',
    })
    .execute();
  return id;
}

/** Changes a filed notification (what later checks learnt, the outcome). */
export async function updateNotification(
  db: Tx,
  tenantId: string,
  id: string,
  patch: Omit<Partial<NotificationFiling>, 'gateway' | 'rawBody'> & {
    paymentId?: string | null;
    feeEntryId?: string | null;
  },
): Promise<void> {
  const set: Record<string, unknown> = {};
  const columns: Record<string, string> = {
    contentType: 'content_type',
    sourceIp: 'source_ip',
    kind: 'kind',
    eventId: 'event_id',
    externalPaymentId: 'external_payment_id',
    gatewayStatus: 'gateway_status',
    amount: 'amount',
    fee: 'fee',
    currency: 'currency',
    reference: 'reference',
    companyId: 'company_id',
    gatewayAccountId: 'gateway_account_id',
    linkId: 'link_id',
    invoiceId: 'invoice_id',
    trusted: 'trusted',
    status: 'status',
    outcome: 'outcome',
    paymentId: 'payment_id',
    feeEntryId: 'fee_entry_id',
  };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if (k === 'checks') set.checks = JSON.stringify(v);
    else if (columns[k]) set[columns[k]] = v;
  }
  if (Object.keys(set).length === 0) return;
  await db
    .updateTable('payment_notifications')
    .set(set)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

export async function notificationRow(db: Tx, tenantId: string, id: string, lock = false) {
  const q = db
    .selectFrom('payment_notifications')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * The trusted notification that already took this gateway payment (or handled this event), if
 * any: a replay is filed as a duplicate of it.
 */
export async function seenBefore(
  db: Tx,
  tenantId: string,
  gateway: Gateway,
  key: { kind: NotificationKind; externalPaymentId?: string | null; eventId?: string | null },
  exceptId: string,
): Promise<NotificationRow | undefined> {
  let q = db
    .selectFrom('payment_notifications')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('gateway', '=', gateway)
    .where('trusted', '=', true)
    .where('status', '<>', 'duplicate')
    .where('id', '<>', exceptId);
  if (key.eventId) q = q.where('event_id', '=', key.eventId);
  else if (key.externalPaymentId)
    q = q.where('kind', '=', key.kind).where('external_payment_id', '=', key.externalPaymentId);
  else return undefined;
  return q.orderBy('received_at').limit(1).executeTakeFirst();
}

function systemCtx(db: Tx, deps: AppDeps, tenantId: string, companyId: string): WorkCtx {
  return { db, tenantId, companyId, deps, principal: { type: 'system' } };
}

export interface TrustedPayment {
  notificationId: string;
  account: GatewayAccountRow;
  /** The invoice the payment names (through its link or reference); null when it names none. */
  invoiceId: string | null;
  amount: Decimal;
  /** The gateway's fee on it (a positive amount), when the gateway reported one. */
  fee?: Decimal | null | undefined;
  currency?: string | undefined;
  externalPaymentId: string;
  /** Checks made so far (the inbound route's), to which these are added. */
  checks: NotificationCheck[];
}

export interface TakeOutcome {
  status: NotificationStatus;
  outcome: string;
  paymentId: string | null;
}

/**
 * A trusted payment (signature verified, confirmed by the gateway): recorded against its invoice
 * when it names exactly one open invoice of the company, in ZAR, and the amount is within the
 * gateway's tolerance of what is due; otherwise filed for review with the reason. The payment
 * goes into the gateway's clearing account (its id is the notification's, so a retry of the same
 * job finds it); a fee the gateway reported is posted Dr bank charges, Cr clearing. invoice.paid
 * goes when the payment settles the balance (settle.ts, in this transaction).
 */
export async function takeTrustedPayment(
  db: Tx,
  deps: AppDeps,
  tenantId: string,
  p: TrustedPayment,
): Promise<TakeOutcome> {
  const companyId = p.account.company_id;
  const checks = [...p.checks];
  const finish = async (
    status: NotificationStatus,
    outcome: string,
    paymentId: string | null,
    feeEntryId?: string | null,
  ) => {
    await updateNotification(db, tenantId, p.notificationId, {
      status,
      outcome,
      checks,
      companyId,
      gatewayAccountId: p.account.id,
      invoiceId: p.invoiceId,
      paymentId,
      feeEntryId: feeEntryId ?? null,
    });
    return { status, outcome, paymentId };
  };
  if (!p.invoiceId)
    return finish('review', 'The payment names no invoice of this company: match it by hand', null);
  const ctx = systemCtx(db, deps, tenantId, companyId);
  const invoice = await lockInvoiceRow(db, tenantId, companyId, p.invoiceId);
  if (!invoice)
    return finish('review', 'The invoice the payment names is not in this company: match it by hand', null);
  if ((p.currency ?? 'ZAR') !== 'ZAR' || invoice.currency !== 'ZAR') {
    checks.push({
      check: 'currency',
      passed: false,
      detail: `paid in ${p.currency ?? 'ZAR'}, invoiced in ${invoice.currency}`,
    });
    return finish('review', 'Not in rand: match it by hand', null);
  }
  if (
    !RECEIVABLE_TYPES.has(invoice.document_type) ||
    invoice.status === 'draft' ||
    invoice.status === 'void'
  ) {
    checks.push({ check: 'invoice open', passed: false, detail: `${invoice.number} is ${invoice.status}` });
    return finish(
      'review',
      `${invoice.number} is not open for payment (${invoice.status}): match it by hand`,
      null,
    );
  }
  const due = money(amountDue(invoice, (await settlements(db, tenantId, [invoice.id])).get(invoice.id)!));
  const tolerance = money(p.account.amount_tolerance);
  const off = p.amount.minus(due).abs();
  const within = due.greaterThan(0) && off.lessThanOrEqualTo(tolerance);
  checks.push({
    check: 'amount',
    passed: within,
    detail: `R${p.amount.toFixed(2)} paid, R${due.toFixed(2)} due on ${invoice.number}, tolerance R${tolerance.toFixed(2)}`,
  });
  if (!within)
    return finish(
      'review',
      due.lessThanOrEqualTo(0)
        ? `${invoice.number} has nothing left to pay: match it by hand (or dismiss it)`
        : `R${p.amount.toFixed(2)} paid against R${due.toFixed(2)} due on ${invoice.number}: outside the tolerance, match it by hand`,
      null,
    );
  try {
    const { payment } = await recordPaymentCore(ctx, invoice.id, {
      amount: toNumber(p.amount),
      date: dayOf(deps.now()),
      method: p.account.gateway,
      reference: p.externalPaymentId,
      bankAccountId: p.account.clearing_account_id,
      clientId: p.notificationId,
    });
    const feeEntryId = await postFee(ctx, p.account, p.fee, p.externalPaymentId, invoice.number, payment.id);
    return finish(
      'matched',
      `Recorded as payment of R${p.amount.toFixed(2)} on ${invoice.number}`,
      payment.id,
      feeEntryId,
    );
  } catch (err) {
    // A refusal of the payment service (a locked period, ...) is a reason to review, not a lost notification.
    if (!(err instanceof HttpError)) throw err;
    return finish('review', `Could not be recorded: ${err.message}`, null);
  }
}

/** The gateway's fee: Dr bank charges, Cr the clearing account (what the payout will lack). */
async function postFee(
  ctx: WorkCtx,
  account: GatewayAccountRow,
  fee: Decimal | null | undefined,
  reference: string,
  number: string,
  paymentId: string,
): Promise<string | null> {
  if (!fee || fee.isZero()) return null;
  const lctx = ledgerCtxOf(ctx);
  return post(lctx, {
    companyId: account.company_id,
    date: dayOf(ctx.deps.now()),
    description: `${GATEWAY_LABELS[account.gateway]} fee on ${number}`,
    reference,
    source: { type: 'gateway_fee', id: paymentId },
    lines: [
      { accountId: await systemAccount(lctx, account.company_id, 'bank_charges'), debit: fee.abs() },
      { accountId: account.clearing_account_id, credit: fee.abs() },
    ],
  });
}

export function toNotification(r: NotificationRow) {
  return {
    id: r.id,
    gateway: r.gateway,
    kind: r.kind,
    status: r.status,
    trusted: r.trusted,
    outcome: r.outcome,
    checks: r.checks,
    companyId: r.company_id,
    eventId: r.event_id,
    externalPaymentId: r.external_payment_id,
    gatewayStatus: r.gateway_status,
    amount: r.amount === null ? null : toNumber(r.amount),
    fee: r.fee === null ? null : toNumber(r.fee),
    currency: r.currency,
    reference: r.reference,
    linkId: r.link_id,
    invoiceId: r.invoice_id,
    paymentId: r.payment_id,
    rawBody: r.raw_body,
    contentType: r.content_type,
    sourceIp: r.source_ip,
    resolvedAt: r.resolved_at?.toISOString() ?? null,
    resolvedByType: r.resolved_by_type,
    resolvedBy: r.resolved_by,
    dismissReason: r.dismiss_reason,
    receivedAt: r.received_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/**
 * The inbox shows the tenant's notifications for the caller's company, and those filed before
 * any company was known (refused ones: a bad signature names nobody trustworthy).
 */
function inbox(ctx: TenantCtx) {
  // No select here: pageOfQuery counts over it, then selects the page.
  return ctx.db
    .selectFrom('payment_notifications')
    .where('tenant_id', '=', ctx.tenantId)
    .where((eb) => eb.or([eb('company_id', '=', companyOf(ctx)), eb('company_id', 'is', null)]));
}

const SORT_COLUMNS: Record<string, Array<'received_at' | 'updated_at' | 'created_at'>> = {
  date: ['received_at'],
  updatedAt: ['updated_at'],
  createdAt: ['created_at'],
};

export async function listNotifications(ctx: TenantCtx, query: Static<typeof NotificationListQuery>) {
  const p = paging(query);
  const order = sortOrder<string>(query.sort, '-date');
  let q = inbox(ctx);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.gateway) q = q.where('gateway', '=', query.gateway);
  if (query.invoiceId) q = q.where('invoice_id', '=', query.invoiceId);
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key] ?? ['received_at'], direction: order.direction },
    p,
  );
  return pageOf((rows as NotificationRow[]).map(toNotification), total, p);
}

async function inboxRow(ctx: TenantCtx, id: string, lock = false): Promise<NotificationRow> {
  const q = inbox(ctx).selectAll().where('id', '=', id);
  const r = await (lock ? q.forUpdate() : q).executeTakeFirst();
  if (!r) throw notFound('Payment notification');
  return r;
}

export async function getNotification(ctx: TenantCtx, id: string) {
  return toNotification(await inboxRow(ctx, id));
}

function reviewable(r: NotificationRow) {
  if (r.status !== 'review' || !r.trusted)
    throw conflict(`The notification is ${r.status}, not waiting in the review queue`, {
      code: 'NOT_IN_REVIEW',
    });
}

function resolvedBy(ctx: TenantCtx) {
  const who = ctx.principal;
  return {
    resolved_by_type: who.type,
    resolved_by: who.type === 'api_key' ? who.keyId : who.userId,
    resolved_at: ctx.deps.now(),
  };
}

/**
 * A person matches a trusted notification in the review queue to an invoice: the payment is
 * recorded as the gateway reported it (into the clearing account; more than is due leaves the
 * customer a credit, as any payment does).
 */
export async function matchNotification(ctx: TenantCtx, id: string, invoiceId: string) {
  const r = await inboxRow(ctx, id, true);
  reviewable(r);
  if (r.kind !== 'payment' || r.amount === null || !r.gateway_account_id)
    throw conflict('Only a payment the gateway confirmed can be matched to an invoice', {
      code: 'NOT_IN_REVIEW',
    });
  const account = await ctx.db
    .selectFrom('payment_gateway_accounts')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', r.gateway_account_id)
    .executeTakeFirstOrThrow();
  const { payment } = await recordPaymentCore(ctx, invoiceId, {
    amount: toNumber(r.amount),
    date: dayOf(ctx.deps.now()),
    method: account.gateway,
    reference: r.external_payment_id ?? undefined,
    bankAccountId: account.clearing_account_id,
    clientId: r.id,
  });
  const number = (
    await ctx.db
      .selectFrom('invoices')
      .select('number')
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow()
  ).number;
  const feeEntryId = await postFee(
    ctx,
    account,
    r.fee === null ? null : money(r.fee),
    r.external_payment_id ?? r.id,
    number ?? '',
    payment.id,
  );
  await ctx.db
    .updateTable('payment_notifications')
    .set({
      status: 'matched',
      invoice_id: invoiceId,
      payment_id: payment.id,
      fee_entry_id: feeEntryId,
      outcome: `Matched by hand: recorded as payment of R${money(r.amount).toFixed(2)}`,
      ...resolvedBy(ctx),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getNotification(ctx, id);
}

/** A person dismisses a notification in the review queue, with the reason; nothing is recorded. */
export async function dismissNotification(ctx: TenantCtx, id: string, reason: string) {
  const r = await inboxRow(ctx, id, true);
  reviewable(r);
  await ctx.db
    .updateTable('payment_notifications')
    .set({ status: 'dismissed', dismiss_reason: reason, outcome: `Dismissed: ${reason}`, ...resolvedBy(ctx) })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getNotification(ctx, id);
}
