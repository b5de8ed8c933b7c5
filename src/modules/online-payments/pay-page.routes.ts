// The public pay page, GET /pay/{token}: the invoice summary and the pay button, without
// signing in. The token names the tenant (links.token.ts): its transaction is opened with it
// and the link found by the whole token under row-level security. What the page shows is
// worked out in that transaction; the page is rendered after it.
import { Type } from 'typebox';
import { type Tx, withTenant } from '../../platform/db/tenant.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import type { PublicCtx } from '../../platform/http/context.ts';
import { money } from '../../platform/money/money.ts';
import { findInvoiceRow, payUrl } from '../invoices/index.ts';
import { paymentForm } from './gateway-a.protocol.ts';
import { availabilityOf, gatewayAccountRow, openGatewayA } from './gateways.service.ts';
import { PayPageParams, PayPageQuery } from './links.schemas.ts';
import { dueNow, type LinkRow } from './links.service.ts';
import { tenantOfToken } from './links.token.ts';
import { type PayState, type PaySummary, pageHeaders, renderPayPage, statusOfPage } from './pay-page.ts';

const Html = Type.String({ description: 'The pay page (text/html)' });

type Result = 'success' | 'cancelled' | 'failed' | undefined;

async function summaryOf(tx: Tx, tenantId: string, link: LinkRow) {
  const invoice = await findInvoiceRow(tx, tenantId, link.company_id, link.invoice_id);
  if (!invoice) return undefined;
  const company = await tx
    .selectFrom('companies')
    .select(['name', 'trade_name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', link.company_id)
    .executeTakeFirstOrThrow();
  const customer = await tx
    .selectFrom('contacts')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', invoice.contact_id)
    .executeTakeFirstOrThrow();
  const due = money(await dueNow(tx, tenantId, invoice));
  const total = money(invoice.total);
  const summary: PaySummary = {
    business: company.trade_name?.trim() || company.name,
    number: invoice.number,
    customer: customer.name,
    issueDate: invoice.issue_date,
    dueDate: invoice.due_date,
    currency: invoice.currency,
    total,
    // What has settled it (payments, credits): the page shows what is left as the amount due.
    paid: total.minus(due),
    due,
  };
  return { invoice, summary };
}

/** What the page shows for a token, in order: unknown, gone, foreign, paid, confirming, unavailable, pay. */
async function stateOf(
  ctx: PublicCtx,
  tx: Tx,
  tenantId: string,
  token: string,
  result: Result,
): Promise<PayState> {
  const link = await tx
    .selectFrom('payment_links')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('token', '=', token)
    .executeTakeFirst();
  if (!link) return { kind: 'not-found' };
  const found = await summaryOf(tx, tenantId, link);
  if (!found) return { kind: 'not-found' };
  const { invoice, summary } = found;
  if (link.status === 'revoked') return { kind: 'gone', why: 'revoked', summary };
  if (invoice.currency !== 'ZAR') return { kind: 'foreign', summary };
  if (invoice.status === 'void') return { kind: 'gone', why: 'void', summary };
  if (summary.due.lessThanOrEqualTo(0)) return { kind: 'paid', summary };
  if (link.expires_at.getTime() <= ctx.deps.now().getTime()) return { kind: 'gone', why: 'expired', summary };
  // Back from the gateway: its notification records the payment, perhaps a moment later.
  if (result === 'success') return { kind: 'confirming', summary };
  const account = await gatewayAccountRow(tx, tenantId, link.company_id, link.gateway);
  const availability = availabilityOf(ctx.deps, link.gateway, account);
  if (!availability.available || !account)
    return { kind: 'unavailable', reason: availability.reason!, summary };
  const again = result === 'cancelled' || result === 'failed' ? result : undefined;
  if (link.gateway === 'gatewayb') {
    if (!link.checkout_url)
      return {
        kind: 'unavailable',
        reason: 'The checkout of this link was not made at the gateway',
        summary,
      };
    return {
      kind: 'pay',
      summary,
      result: again,
      button: { kind: 'link', href: link.checkout_url, amount: money(link.amount) },
    };
  }
  // Gateway A: signed now, for what is due now (a payment made since lowers it).
  const page = payUrl(ctx.deps, token);
  const form = paymentForm(ctx.deps.config.gatewayABaseUrl, openGatewayA(ctx.deps, account), {
    returnUrl: `${page}?result=success`,
    cancelUrl: `${page}?result=cancelled`,
    notifyUrl: `${ctx.deps.config.publicBaseUrl}/webhooks/gatewaya/itn/${tenantId}`,
    mPaymentId: link.id,
    amount: summary.due.toFixed(2),
    itemName: `Invoice ${invoice.number}`,
    itemDescription: summary.business,
    customStr1: tenantId,
    customStr2: invoice.id,
  });
  return {
    kind: 'pay',
    summary,
    result: again,
    button: { kind: 'form', action: form.action, fields: form.fields, amount: summary.due },
  };
}

export const payPageRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/pay/{token}',
    operationId: 'openPayPage',
    tag: 'Payment links',
    module: 'invoices',
    access: 'read',
    auth: 'none',
    produces: 'text/html',
    errors: ['LINK_GONE', 'CURRENCY_NOT_SUPPORTED'],
    summary: 'The public pay page of a payment link: the invoice summary and the pay button',
    description:
      'No sign-in: the token is the credential. Every answer is a page saying what it is: 200 with the button ' +
      "(gateway A: a form posting to the gateway's payment page, signed for what is due now; gateway B: the " +
      "checkout's address); 200 'paid, thank you' once nothing is due; 200 'payment received, being confirmed' " +
      'with result=success before the payment is recorded; 404 an unknown token; 410 a revoked or expired link ' +
      '(or a void invoice); 422 a foreign-currency invoice (rand only); 503 the gateway unavailable now, with the ' +
      'reason.',
    params: PayPageParams,
    query: PayPageQuery,
    response: { 200: Html },
    handler: async ({ params, query }, ctx) => {
      const tenantId = tenantOfToken(params.token);
      const state: PayState = tenantId
        ? await withTenant(ctx.root, tenantId, (tx) => stateOf(ctx, tx, tenantId, params.token, query.result))
        : { kind: 'not-found' };
      const formAction =
        state.kind === 'pay' && state.button.kind === 'form' ? new URL(state.button.action).origin : null;
      return ctx.reply.code(statusOfPage(state)).headers(pageHeaders(formAction)).send(renderPayPage(state));
    },
  }),
];
