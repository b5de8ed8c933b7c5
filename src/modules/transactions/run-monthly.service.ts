// POST /admin/billing/run-monthly: one amount per contact and month, posted by an integration
// whose API key is bound to the contact (api_keys.contact_id). While the month's aggregate is
// pending each post replaces it in place; the monthly roll (monthly-roll.ts) then puts it on the
// contact's draft invoice, and from then on a post for that month is a 409 until the invoice is
// voided (or the draft deleted), which opens the aggregate again with the new figures.
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, forbidden, HttpError } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, Money, toNumber } from '../../platform/money/money.ts';
import type { BillingAggregate, RunMonthlyBody } from './transactions.schemas.ts';
import type { BillingAggregatesTable } from './transactions.tables.ts';

type Out = Static<typeof BillingAggregate>;

type AggregateRow = Selectable<BillingAggregatesTable>;

/** The first day of the month of `moment`, UTC (YYYY-MM-01). */
export function monthStart(moment: Date): string {
  return `${moment.toISOString().slice(0, 7)}-01`;
}

function toAggregate(r: AggregateRow): Out {
  return {
    id: r.id,
    contactId: r.contact_id,
    month: String(r.month).slice(0, 7),
    amount: toNumber(r.amount),
    source: r.source,
    description: r.description,
    status: r.status,
    invoiceId: r.invoice_id,
    invoicedAt: r.invoiced_at === null ? null : r.invoiced_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The live contact the calling key is bound to, or 403 KEY_NOT_BOUND_TO_CONTACT. */
async function boundContact(ctx: TenantCtx): Promise<string> {
  const who = ctx.principal;
  // The route takes keys only (security 'apiKey'): anything else never gets here.
  if (who.type !== 'api_key')
    throw new HttpError(401, 'An API key is required', { code: 'API_KEY_REQUIRED' });
  const row = await ctx.db
    .selectFrom('api_keys')
    .leftJoin('contacts', (j) =>
      j
        .onRef('contacts.tenant_id', '=', 'api_keys.tenant_id')
        .onRef('contacts.id', '=', 'api_keys.contact_id')
        .on('contacts.deleted_at', 'is', null),
    )
    .select(['api_keys.contact_id', 'contacts.id as live_contact'])
    .where('api_keys.tenant_id', '=', ctx.tenantId)
    .where('api_keys.id', '=', who.keyId)
    .executeTakeFirst();
  if (!row?.contact_id)
    throw forbidden(
      'The API key is bound to no contact: create the key with contactId to bill that contact',
      'KEY_NOT_BOUND_TO_CONTACT',
    );
  if (!row.live_contact)
    throw forbidden('The contact the API key is bound to has been deleted', 'KEY_NOT_BOUND_TO_CONTACT');
  return row.contact_id;
}

/**
 * Creates the month's aggregate or replaces its figures while pending (200 either way); an
 * aggregate on a live invoice is a 409 ALREADY_INVOICED; one whose invoice was voided or whose
 * draft was deleted is pending again with the new figures.
 */
export async function postMonthly(ctx: TenantCtx, body: Static<typeof RunMonthlyBody>): Promise<Out> {
  if (!hasAtMostDecimals(body.amount, 2)) throw badRequest('amount', 'at most two decimals');
  const month = `${body.month}-01`;
  const current = monthStart(ctx.deps.now());
  if (month > current)
    throw badRequest('month', `must not be after the current month (${current.slice(0, 7)})`);
  const contactId = await boundContact(ctx);
  const who = ctx.principal;
  const keyId = who.type === 'api_key' ? who.keyId : null;
  const figures = {
    amount: new Money(body.amount).toFixed(2),
    source: body.source.trim(),
    description: body.description.trim(),
    api_key_id: keyId,
  };
  const now = ctx.deps.now();
  // The first post of the month inserts; a concurrent one waits on the unique key, then updates.
  await ctx.db
    .insertInto('billing_aggregates')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      contact_id: contactId,
      month,
      ...figures,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'contact_id', 'month']).doNothing())
    .execute();
  const row = await ctx.db
    .selectFrom('billing_aggregates')
    .leftJoin('invoices', (j) =>
      j
        .onRef('invoices.tenant_id', '=', 'billing_aggregates.tenant_id')
        .onRef('invoices.company_id', '=', 'billing_aggregates.invoice_company_id')
        .onRef('invoices.id', '=', 'billing_aggregates.invoice_id'),
    )
    .select(['billing_aggregates.id', 'billing_aggregates.status', 'invoices.status as invoice_status'])
    .select('invoices.deleted_at as invoice_deleted_at')
    .where('billing_aggregates.tenant_id', '=', ctx.tenantId)
    .where('billing_aggregates.contact_id', '=', contactId)
    .where('billing_aggregates.month', '=', month)
    // The roll locks the same row: a post and a roll of one month never interleave.
    .forUpdate('billing_aggregates')
    .executeTakeFirstOrThrow();
  const reopened = row.invoice_status === 'void' || row.invoice_deleted_at !== null;
  if (row.status === 'invoiced' && !reopened)
    throw conflict(`${body.month} is on an invoice already: void the invoice first to change it`, {
      code: 'ALREADY_INVOICED',
    });
  const updated = await ctx.db
    .updateTable('billing_aggregates')
    .set({
      ...figures,
      status: 'pending',
      invoice_id: null,
      invoice_company_id: null,
      invoiced_at: null,
      updated_at: now,
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAggregate(updated);
}
