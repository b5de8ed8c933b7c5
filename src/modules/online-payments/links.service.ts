// Payment links: a link for what an invoice has due now, opened by the customer at
// /pay/{token} without signing in. Rand only (spec Payments rule 4), and only while the gateway
// can take money (rule 3). Gateway B's checkout is made at the gateway when the link is made
// (the link's id as its Idempotency-Key, so a retried creation never makes a second one);
// gateway A needs nothing at the gateway: its form is signed when the page is opened.

import type { Selectable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, HttpError, notFound, unavailable } from '../../platform/http/problem.ts';
import { money, toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import {
  amountDue,
  findInvoiceRow,
  type InvoiceRow,
  lockInvoiceRow,
  payUrl,
  RECEIVABLE_TYPES,
  settlements,
} from '../invoices/index.ts';
import { createCheckout, GatewayBError } from './gateway-b.client.ts';
import { availabilityOf, gatewayAccountRow, openGatewayB, requireAvailable } from './gateways.service.ts';
import type { LinkViewStatus } from './links.schemas.ts';
import { newLinkToken } from './links.token.ts';
import { GATEWAYS, type Gateway, type PaymentLinksTable } from './online.tables.ts';

export type LinkRow = Selectable<PaymentLinksTable>;

const DEFAULT_DAYS = 30;

/** What is due on the invoice now (a decimal string). */
export async function dueNow(tx: Tx, tenantId: string, invoice: InvoiceRow): Promise<string> {
  return amountDue(invoice, (await settlements(tx, tenantId, [invoice.id])).get(invoice.id)!);
}

/** The status shown: revoked by the business, paid (nothing due), expired, else active. */
export function linkStatus(row: LinkRow, due: string, now: Date): LinkViewStatus {
  if (row.status === 'revoked') return 'revoked';
  if (money(due).lessThanOrEqualTo(0)) return 'paid';
  if (row.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function toLink(ctx: Pick<TenantCtx, 'deps'>, row: LinkRow, due: string) {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    gateway: row.gateway,
    url: payUrl(ctx.deps, row.token),
    checkoutUrl: row.checkout_url,
    amount: toNumber(row.amount),
    currency: row.currency,
    status: linkStatus(row, due, ctx.deps.now()),
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function findLink(ctx: TenantCtx, invoiceId: string, id: string, lock = false) {
  const q = ctx.db
    .selectFrom('payment_links')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

async function invoiceOf(ctx: TenantCtx, invoiceId: string): Promise<InvoiceRow> {
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!row) throw notFound('Document');
  return row;
}

/** Refusals of a document that cannot be paid online; the same order at creation and on the page. */
export function currencyRefusal(invoice: InvoiceRow): HttpError | null {
  return invoice.currency === 'ZAR'
    ? null
    : new HttpError(422, `Payment links take rand (ZAR) only: ${invoice.number} is in ${invoice.currency}`, {
        code: 'CURRENCY_NOT_SUPPORTED',
      });
}

/** The gateway asked for, or the first that can take money (gateway A, then B). */
async function chooseGateway(ctx: TenantCtx, companyId: string, asked: Gateway | undefined) {
  if (asked) return asked;
  const reasons: string[] = [];
  for (const g of GATEWAYS) {
    const a = availabilityOf(ctx.deps, g, await gatewayAccountRow(ctx.db, ctx.tenantId, companyId, g));
    if (a.available) return g;
    reasons.push(a.reason!);
  }
  throw conflict(`No payment gateway can take money: ${reasons.join('; ')}`, { code: 'GATEWAY_UNAVAILABLE' });
}

export interface LinkInput {
  gateway?: Gateway | undefined;
  expiresAt?: string | undefined;
  clientId?: string | undefined;
}

/** POST /api/invoices/{id}/payment-links: 201 with the link; 200 on a clientId replay. */
export async function createLink(ctx: TenantCtx, invoiceId: string, input: LinkInput) {
  const companyId = companyOf(ctx);
  // Locked: two creations with one clientId take turns, and the second finds the first.
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyId, invoiceId);
  if (!invoice) throw notFound('Document');
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'payment_links',
    owner: ['invoice_id', invoiceId],
  });
  if (replay) {
    ctx.reply.code(200);
    return toLink(ctx, (await findLink(ctx, invoiceId, id))!, await dueNow(ctx.db, ctx.tenantId, invoice));
  }
  if (!RECEIVABLE_TYPES.has(invoice.document_type))
    throw conflict('Only an invoice or a debit note can be paid online', { code: 'NOT_RECEIVABLE' });
  const foreign = currencyRefusal(invoice);
  if (foreign) throw foreign;
  if (invoice.status === 'draft')
    throw conflict('Release the invoice before making a payment link', { code: 'NOT_OPEN' });
  if (invoice.status === 'void') throw conflict('The invoice is void', { code: 'NOT_OPEN' });
  const due = money(await dueNow(ctx.db, ctx.tenantId, invoice));
  if (due.lessThanOrEqualTo(0))
    throw conflict('The invoice is already paid in full', { code: 'ALREADY_PAID' });
  const now = ctx.deps.now();
  const expiresAt = input.expiresAt
    ? new Date(input.expiresAt)
    : new Date(now.getTime() + DEFAULT_DAYS * 86_400_000);
  if (expiresAt.getTime() <= now.getTime()) throw badRequest('expiresAt', 'must be in the future');
  const gateway = await chooseGateway(ctx, companyId, input.gateway);
  const account = await requireAvailable(ctx, companyId, gateway);
  const token = newLinkToken(ctx.tenantId);
  let checkout: { id: string; redirectUrl: string } | null = null;
  if (gateway === 'gatewayb') {
    const page = payUrl(ctx.deps, token);
    try {
      checkout = await createCheckout(
        ctx.deps.config.gatewayBBaseUrl,
        openGatewayB(ctx.deps, account).secretKey,
        {
          amount: due.times(100).toNumber(),
          currency: 'ZAR',
          successUrl: `${page}?result=success`,
          cancelUrl: `${page}?result=cancelled`,
          failureUrl: `${page}?result=failed`,
          // Exactly these: the webhook's reference check (rule 2) reads the tenant and invoice.
          metadata: { tenantId: ctx.tenantId, invoiceId, linkId: id, reference: invoice.number },
        },
        id,
      );
    } catch (err) {
      if (!(err instanceof GatewayBError)) throw err;
      if (err.kind === 'unavailable') throw unavailable(err.message);
      throw new HttpError(422, err.message, { code: 'UNPROCESSABLE' });
    }
  }
  await ctx.db
    .insertInto('payment_links')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      invoice_id: invoiceId,
      gateway,
      token,
      amount: due.toFixed(2),
      currency: 'ZAR',
      expires_at: expiresAt,
      checkout_id: checkout?.id ?? null,
      checkout_url: checkout?.redirectUrl ?? null,
    })
    .execute();
  ctx.reply.code(201);
  return toLink(ctx, (await findLink(ctx, invoiceId, id))!, due.toFixed(2));
}

/** GET /api/invoices/{id}/payment-links: newest first. */
export async function listLinks(ctx: TenantCtx, invoiceId: string) {
  const invoice = await invoiceOf(ctx, invoiceId);
  const rows = await ctx.db
    .selectFrom('payment_links')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const due = await dueNow(ctx.db, ctx.tenantId, invoice);
  return rows.map((r) => toLink(ctx, r, due));
}

export async function getLink(ctx: TenantCtx, invoiceId: string, id: string) {
  const invoice = await invoiceOf(ctx, invoiceId);
  const row = await findLink(ctx, invoiceId, id);
  if (!row) throw notFound('Payment link');
  return toLink(ctx, row, await dueNow(ctx.db, ctx.tenantId, invoice));
}

/** POST …/payment-links/{linkId}/revoke: the page stops taking payment; 409 when revoked or expired. */
export async function revokeLink(ctx: TenantCtx, invoiceId: string, id: string) {
  const invoice = await invoiceOf(ctx, invoiceId);
  const row = await findLink(ctx, invoiceId, id, true);
  if (!row) throw notFound('Payment link');
  if (row.status === 'revoked')
    throw conflict('The payment link is revoked already', { code: 'LINK_NOT_ACTIVE' });
  if (row.expires_at.getTime() <= ctx.deps.now().getTime())
    throw conflict('The payment link has expired already', { code: 'LINK_NOT_ACTIVE' });
  await ctx.db
    .updateTable('payment_links')
    .set({ status: 'revoked', revoked_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return toLink(ctx, (await findLink(ctx, invoiceId, id))!, await dueNow(ctx.db, ctx.tenantId, invoice));
}
