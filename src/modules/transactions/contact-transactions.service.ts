// Contact transactions: usage or charges recorded against a contact, pending until the monthly
// roll (monthly-roll.ts) puts them on the contact's draft invoice. Recorded once: externalRef
// makes a create idempotent (a replay answers the transaction it made, 200).
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { dayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { cents, hasAtMostDecimals, Money, type MoneyInput, toNumber } from '../../platform/money/money.ts';
import { standardRate } from '../../platform/money/vat-rate.ts';
import type {
  ContactTransaction,
  ContactTransactionCreate,
  ContactTransactionListQuery,
  ContactTransactionUpdate,
} from './transactions.schemas.ts';
import type { ContactTransactionsTable } from './transactions.tables.ts';

type Row = Selectable<ContactTransactionsTable>;
type Out = Static<typeof ContactTransaction>;

/** The largest metadata kept, as JSON text. */
const METADATA_LIMIT = 8 * 1024;

export function toContactTransaction(r: Row): Out {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    contactId: r.contact_id,
    description: r.description,
    currency: r.currency,
    externalRef: r.external_ref,
    metadata: (r.metadata ?? {}) as Record<string, unknown>,
    status: r.status,
    invoiceId: r.invoice_id,
    occurredAt: r.occurred_at.toISOString(),
    invoicedAt: r.invoiced_at === null ? null : r.invoiced_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    quantity: Number(r.quantity),
    unitPrice: Number(r.unit_price),
    amount: toNumber(r.amount),
    vatRate: Number(r.vat_rate),
  };
}

/** The live contact, or 404 (another tenant's id included). */
async function liveContact(ctx: TenantCtx, contactId: string): Promise<{ currency: string }> {
  const contact = await ctx.db
    .selectFrom('contacts')
    .select(['currency'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', contactId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!contact) throw notFound('Contact');
  return contact;
}

/** The contact's transactions, newest first (occurredAt, then creation): a bare array. */
export async function listContactTransactions(
  ctx: TenantCtx,
  contactId: string,
  query: Static<typeof ContactTransactionListQuery>,
): Promise<Out[]> {
  await liveContact(ctx, contactId);
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  let q = ctx.db
    .selectFrom('contact_transactions')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('contact_id', '=', contactId);
  if (query.from) q = q.where('occurred_at', '>=', new Date(`${query.from}T00:00:00Z`));
  // `to` is a whole day: before the start of the day after it.
  if (query.to) q = q.where('occurred_at', '<', new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000));
  if (query.status) q = q.where('status', '=', query.status);
  const rows = await q
    .orderBy('occurred_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toContactTransaction);
}

export async function getContactTransaction(ctx: TenantCtx, contactId: string, id: string): Promise<Out> {
  const row = await ctx.db
    .selectFrom('contact_transactions')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('contact_id', '=', contactId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Contact transaction');
  return toContactTransaction(row);
}

/** The figures of a create, checked: quantity, unit price, amount and VAT rate as stored. */
export function priceOf(input: {
  quantity?: MoneyInput | undefined;
  unitPrice: MoneyInput;
  amount?: MoneyInput | undefined;
  vatRate?: MoneyInput | undefined;
  occurredAt: string;
}): {
  quantity: string;
  unitPrice: string;
  amount: string;
  vatRate: string;
} {
  const quantity = new Money(input.quantity ?? 1);
  if (!hasAtMostDecimals(quantity, 4)) throw badRequest('quantity', 'at most four decimals');
  const unitPrice = new Money(input.unitPrice);
  if (!hasAtMostDecimals(unitPrice, 4)) throw badRequest('unitPrice', 'at most four decimals');
  const amount = cents(quantity.times(unitPrice));
  if (input.amount !== undefined && !new Money(input.amount).equals(amount))
    throw badRequest('amount', `must be quantity × unitPrice rounded to cents (${amount.toFixed(2)})`);
  const day = dayOf(new Date(input.occurredAt));
  const standard = standardRate(day);
  const vatRate = new Money(input.vatRate ?? standard);
  if (!vatRate.isZero() && !vatRate.equals(standard))
    throw badRequest('vatRate', `must be 0 or the standard rate on ${day} (${standard.toString()})`);
  return {
    quantity: quantity.toString(),
    unitPrice: unitPrice.toString(),
    amount: amount.toFixed(2),
    vatRate: vatRate.toString(),
  };
}

/**
 * Records a transaction (201), or answers the one an externalRef already made (200, whatever
 * else the body says: the first record stands). A ref the tenant used for another contact: 409.
 */
export async function createContactTransaction(
  ctx: TenantCtx,
  contactId: string,
  input: Static<typeof ContactTransactionCreate>,
): Promise<Out> {
  const contact = await liveContact(ctx, contactId);
  if (input.currency !== undefined && input.currency !== contact.currency)
    throw badRequest('currency', `must be the contact's currency (${contact.currency})`);
  const price = priceOf(input);
  const occurredAt = new Date(input.occurredAt);
  if (Number.isNaN(occurredAt.getTime())) throw badRequest('occurredAt', 'must be a date-time');
  const metadata = JSON.stringify(input.metadata ?? {});
  if (metadata.length > METADATA_LIMIT)
    throw badRequest('metadata', `at most ${METADATA_LIMIT} characters as JSON`);
  const ref = input.externalRef?.trim();
  const now = ctx.deps.now();
  const id = crypto.randomUUID();
  const inserted = await ctx.db
    .insertInto('contact_transactions')
    .values({
      tenant_id: ctx.tenantId,
      id,
      contact_id: contactId,
      description: input.description.trim(),
      currency: contact.currency,
      external_ref: ref ?? null,
      metadata,
      quantity: price.quantity,
      unit_price: price.unitPrice,
      amount: price.amount,
      vat_rate: price.vatRate,
      occurred_at: occurredAt,
      created_at: now,
      updated_at: now,
    })
    // Of two posts of one ref, one inserts; the other waits for it, then finds it below.
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'external_ref']).where('external_ref', 'is not', null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (inserted) return toContactTransaction(inserted);
  const existing = await ctx.db
    .selectFrom('contact_transactions')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('external_ref', '=', ref!)
    .executeTakeFirstOrThrow();
  if (existing.contact_id !== contactId)
    throw conflict('externalRef: already used for another contact', { field: 'externalRef' });
  ctx.reply.code(200);
  return toContactTransaction(existing);
}

/** The transaction, locked for a change; one already on an invoice is 409 ALREADY_INVOICED. */
async function lockedNotInvoiced(ctx: TenantCtx, contactId: string, id: string) {
  const row = await ctx.db
    .selectFrom('contact_transactions')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('contact_id', '=', contactId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Contact transaction');
  if (row.status === 'invoiced')
    throw conflict('The transaction is on an invoice already: void the invoice (or credit it) instead', {
      code: 'ALREADY_INVOICED',
    });
  return row;
}

/** Withdraws a pending transaction (void): it is never billed. Invoiced: 409; void already: as is. */
export async function voidContactTransaction(ctx: TenantCtx, contactId: string, id: string): Promise<Out> {
  const row = await lockedNotInvoiced(ctx, contactId, id);
  if (row.status === 'void') return toContactTransaction(row);
  const done = await ctx.db
    .updateTable('contact_transactions')
    .set({ status: 'void' })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toContactTransaction(done);
}

/**
 * Changes a pending transaction: the figures are checked again as on create (an amount given must
 * be the new quantity × unitPrice; left out, it is worked out again). Invoiced or void: 409.
 */
export async function updateContactTransaction(
  ctx: TenantCtx,
  contactId: string,
  id: string,
  patch: Static<typeof ContactTransactionUpdate>,
): Promise<Out> {
  const row = await lockedNotInvoiced(ctx, contactId, id);
  if (row.status === 'void') throw conflict('The transaction is void: record a new one');
  const occurredAt = patch.occurredAt ?? row.occurred_at.toISOString();
  const price = priceOf({
    quantity: patch.quantity ?? row.quantity,
    unitPrice: patch.unitPrice ?? row.unit_price,
    amount: patch.amount,
    vatRate: patch.vatRate ?? row.vat_rate,
    occurredAt,
  });
  const metadata = patch.metadata === undefined ? undefined : JSON.stringify(patch.metadata);
  if (metadata !== undefined && metadata.length > METADATA_LIMIT)
    throw badRequest('metadata', `at most ${METADATA_LIMIT} characters as JSON`);
  const done = await ctx.db
    .updateTable('contact_transactions')
    .set({
      ...(patch.description === undefined ? {} : { description: patch.description.trim() }),
      ...(metadata === undefined ? {} : { metadata }),
      quantity: price.quantity,
      unit_price: price.unitPrice,
      amount: price.amount,
      vat_rate: price.vatRate,
      occurred_at: new Date(occurredAt),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toContactTransaction(done);
}
