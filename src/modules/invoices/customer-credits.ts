// Unapplied customer credit (issue 14, item 8): money a customer has with the company that no
// document owes yet. A customer credit row is made by an overpayment (payments.ts), by a deposit
// applied to a smaller invoice (allocations.ts) and by an advance payment (advance-payments.ts);
// it is drawn down by applications to invoices and by refunds (credit-sources.ts). Its stored
// status follows what remains: open; applied (nothing left, none refunded); refunded (nothing
// left, some refunded); reversed (the payment it came from was reversed).
//
// A new credit is announced (customer_credit.created, the credit as GET answers it); later changes
// show in the list's updatedSince, and the documents a credit moves announce invoice.updated.
//
// The list answers every credit a customer has in one place: these rows, and the remaining
// amounts of released credit notes and deposits (which are credit too, on their own open items).

import { sql } from 'kysely';
import type { Static } from 'typebox';
import { emit } from '../../platform/events/outbox.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { pageOf, paging } from '../../platform/http/paging.ts';
import { notFound } from '../../platform/http/problem.ts';
import { money, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import { touchAndAnnounce } from './announce.ts';
import { type CreditRow, creditRemaining, drawnFromCredits, findCreditRow } from './credit-sources.ts';
import type { CustomerCreditListQuery } from './customer-credits.schemas.ts';
import { creditLeft, findInvoiceRow, settlements } from './invoices.queries.ts';
import type { CreditKind } from './invoices.tables.ts';
import { settleNote } from './notes.ts';

export interface NewCredit {
  kind: CreditKind;
  companyId: string;
  contactId: string;
  date: string;
  amount: string;
  vatAmount?: string;
  vatRate?: string | null;
  accountId: string;
  paymentId?: string | null;
  documentId?: string | null;
  bankAccountId?: string | null;
  reference?: string | null;
  entryId: string;
}

/** Writes a new customer credit (its entry already posted, with the credit's id as open item). */
export async function insertCredit(ctx: WorkCtx, id: string, c: NewCredit) {
  await ctx.db
    .insertInto('customer_credits')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: c.companyId,
      contact_id: c.contactId,
      kind: c.kind,
      date: c.date,
      amount: toSql(c.amount),
      vat_amount: toSql(c.vatAmount ?? 0),
      vat_rate: c.vatRate ?? null,
      account_id: c.accountId,
      payment_id: c.paymentId ?? null,
      document_id: c.documentId ?? null,
      bank_account_id: c.bankAccountId ?? null,
      reference: c.reference ?? null,
      entry_id: c.entryId,
    })
    .execute();
  const credit = await getCredit(ctx, id);
  await emit(ctx, 'customer_credit.created', credit, c.companyId);
  return credit;
}

/**
 * A customer credit's stored status after money was drawn from it or given back; its row is
 * written whether or not the status changed (what remains did: its updatedAt moves).
 */
export async function settleCredit(ctx: WorkCtx, id: string): Promise<void> {
  const row = (await findCreditRow(ctx, id))!;
  const drawn = (await drawnFromCredits(ctx, [id])).get(id)!;
  const { remaining } = creditRemaining(row, drawn);
  let status: CreditRow['status'] = 'open';
  if (row.reversed_at) status = 'reversed';
  else if (remaining.lessThanOrEqualTo(0)) {
    const refunds = await ctx.db
      .selectFrom('customer_refunds')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('source_credit_id', '=', id)
      .where('reversed_at', 'is', null)
      .executeTakeFirst();
    // A deposit's excess whose rest was forfeited (deposits.ts) is forfeited, as its deposit is.
    const forfeit = await ctx.db
      .selectFrom('deposit_forfeits')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('credit_id', '=', id)
      .executeTakeFirst();
    status = forfeit ? 'forfeited' : refunds ? 'refunded' : 'applied';
  }
  await ctx.db
    .updateTable('customer_credits')
    .set({ status, updated_at: sql`now()` })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

type ListedRow = {
  id: string;
  source_type: string;
  kind: string;
  contact_id: string;
  contact_name: string;
  number: string | null;
  date: string;
  amount: string;
  vat_amount: string;
  remaining: string;
  status: string;
  payment_id: string | null;
  document_id: string | null;
  bank_account_id: string | null;
  reference: string | null;
  entry_id: string | null;
  created_at: Date;
  updated_at: Date;
  total_count: string;
};

function toCredit(r: ListedRow) {
  return {
    id: r.id,
    sourceType: r.source_type as 'customer_credit' | 'credit_note' | 'deposit',
    kind: r.kind as CreditKind | 'credit_note' | 'deposit',
    contactId: r.contact_id,
    contactName: r.contact_name,
    number: r.number,
    date: r.date,
    amount: toNumber(r.amount),
    vatAmount: toNumber(r.vat_amount),
    remaining: toNumber(money(r.remaining).isNegative() ? 0 : r.remaining),
    status: r.status as 'open' | 'applied' | 'refunded' | 'reversed' | 'forfeited',
    paymentId: r.payment_id,
    documentId: r.document_id,
    bankAccountId: r.bank_account_id,
    reference: r.reference,
    entryId: r.entry_id,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export type CustomerCredit = ReturnType<typeof toCredit>;

interface ListFilter {
  id?: string;
  contactId?: string | undefined;
  status?: string | undefined;
  updatedSince?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * Customer credits, released credit notes and deposits, each with what remains of it, in one
 * statement. What has been drawn from each: live applications and refunds, a deposit's excess
 * turned into a credit, a deposit forfeited (deposit_forfeits).
 */
async function listed(ctx: WorkCtx, f: ListFilter): Promise<ListedRow[]> {
  const t = ctx.tenantId;
  const company = companyOf(ctx);
  const where = [sql`true`];
  if (f.id) where.push(sql`x.id = ${f.id}`);
  if (f.contactId) where.push(sql`x.contact_id = ${f.contactId}`);
  if (f.status) where.push(sql`x.status = ${f.status}`);
  if (f.updatedSince) where.push(sql`x.updated_at >= ${f.updatedSince}::timestamptz`);
  const rows = await sql<ListedRow>`
    with drawn as (
      select source_id, sum(amount) as amount, bool_or(refund) as refunded from (
        select source_id, amount, false as refund from invoice_allocations
         where tenant_id = ${t} and reversed_at is null
        union all
        select source_id, amount, true from customer_refunds where tenant_id = ${t} and reversed_at is null
        union all
        select document_id, amount, false from customer_credits
         where tenant_id = ${t} and kind = 'deposit_excess' and reversed_at is null
        union all
        select coalesce(credit_id, deposit_id), amount, false from deposit_forfeits where tenant_id = ${t}
      ) d group by source_id
    ), sources as (
      select c.id, 'customer_credit' as source_type, c.kind, c.contact_id, null::text as number, c.date,
             c.amount, c.vat_amount,
             case when c.reversed_at is null then c.amount - coalesce(d.amount, 0) else 0 end as remaining,
             c.status, c.payment_id, c.document_id, c.bank_account_id, c.reference, c.entry_id,
             c.created_at, c.updated_at
        from customer_credits c left join drawn d on d.source_id = c.id
       where c.tenant_id = ${t} and c.company_id = ${company}
      union all
      select i.id, i.document_type, i.document_type, i.contact_id, i.number, i.issue_date,
             i.total, 0, i.total - coalesce(d.amount, 0),
             case when i.total - coalesce(d.amount, 0) > 0 then 'open'
                  when i.status = 'forfeited' then 'forfeited'
                  when coalesce(d.refunded, false) then 'refunded'
                  else 'applied' end,
             null, null, null, i.reference, i.entry_id, i.created_at, i.updated_at
        from invoices i left join drawn d on d.source_id = i.id
       where i.tenant_id = ${t} and i.company_id = ${company} and i.deleted_at is null
         and i.document_type in ('credit_note', 'deposit') and i.status not in ('draft', 'void')
    )
    select x.*, ct.name as contact_name, count(*) over () as total_count
      from sources x join contacts ct on ct.tenant_id = ${t} and ct.id = x.contact_id
     where ${sql.join(where, sql` and `)}
     order by x.date, x.created_at, x.id
     limit ${f.limit} offset ${f.offset}`.execute(ctx.db);
  return rows.rows;
}

export async function listCredits(ctx: TenantCtx, query: Static<typeof CustomerCreditListQuery>) {
  const p = paging(query);
  const rows = await listed(ctx, {
    contactId: query.contactId,
    status: query.status,
    updatedSince: query.updatedSince,
    limit: p.limit,
    offset: p.offset,
  });
  return pageOf(rows.map(toCredit), rows.length ? Number(rows[0]!.total_count) : 0, p);
}

/** One credit (a customer credit, or a credit note or deposit as credit); 404 when none. */
export async function getCredit(ctx: WorkCtx, id: string): Promise<CustomerCredit> {
  const [row] = await listed(ctx, { id, limit: 1, offset: 0 });
  if (!row) throw notFound('Customer credit');
  return toCredit(row);
}

/**
 * After money was drawn from a source or given back: a customer credit's status follows (see
 * settleCredit); a credit note is open, applied or refunded; a deposit paid (what remains is
 * still a deposit), or refunded when nothing remains and some was refunded. A document's row
 * is written (its updatedAt moves) and invoice.updated announces it.
 */
export async function settleSource(ctx: WorkCtx, source: { type: string; id: string }): Promise<void> {
  if (source.type === 'customer_credit') return settleCredit(ctx, source.id);
  if (source.type === 'credit_note') await settleNote(ctx, source.id);
  else await settleDeposit(ctx, source.id);
  await touchAndAnnounce(ctx, source.id);
}

/** A released deposit: paid while anything remains (it is still a deposit), refunded after a refund took the rest. */
async function settleDeposit(ctx: WorkCtx, id: string): Promise<void> {
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (row?.document_type !== 'deposit' || (row.status !== 'paid' && row.status !== 'refunded')) return;
  const s = (await settlements(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  const nothingLeft = money(creditLeft(row, s)).lessThanOrEqualTo(0);
  const status = nothingLeft && !money(s.refunded ?? 0).isZero() ? 'refunded' : 'paid';
  await ctx.db
    .updateTable('invoices')
    .set({ status })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
}
