// Accepting a match: the bank line is reconciled with what the books hold or now record for it.
// Invoices and bills are paid through their own modules' payment services (so invoice.paid is
// emitted once when a payment settles the balance, and an excess becomes the customer's
// credit); an existing entry is only linked; create and transfer post an entry. The amounts
// must add up to the bank line exactly. Everything happens in the caller's transaction, the bank
// line locked; the unique indexes of 0045 stand behind "matched once" and "never recorded again".

import { sql } from 'kysely';
import { claimClientId } from '../../platform/http/client-ids.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, type MoneyInput, money, sum, toSql } from '../../platform/money/money.ts';
import type { WorkCtx } from '../../platform/work/context.ts';
import { companyOf } from '../../platform/work/context.ts';
import { amountDueOf, billSettlements, findBillRow, payBillCore } from '../bills/index.ts';
import { amountDue, findInvoiceRow, recordPaymentCore, settlements } from '../invoices/index.ts';
import { type BankLine, type CreateInput, postCreate, postTransfer } from './reconciliation.post.ts';
import { getMatch } from './reconciliation.read.ts';
import type { MatchKind } from './reconciliation.tables.ts';

export interface MatchInput {
  bankTransactionId: string;
  clientId?: string | undefined;
  invoices?: { invoiceId: string; amount?: MoneyInput | undefined }[] | undefined;
  bills?: { billId: string; amount?: MoneyInput | undefined }[] | undefined;
  existing?: { journalEntryId: string }[] | undefined;
  create?: CreateInput | undefined;
  transfer?: { bankAccountId: string } | undefined;
}

interface Item {
  journalEntryId: string;
  amount: string;
  invoicePaymentId?: string;
  billPaymentId?: string;
  customerCreditId?: string | null;
}

const WAYS = ['invoices', 'bills', 'existing', 'create', 'transfer'] as const;

/** The bank line, locked (another company's, tenant's or none: 404). */
export async function lockBankLine(ctx: WorkCtx, id: string) {
  const line = await ctx.db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!line) throw notFound('Bank transaction');
  return line;
}

/** Accepts a match; created: false when clientId names a match already made. */
export async function acceptMatch(ctx: WorkCtx, input: MatchInput, auto = false) {
  const companyId = companyOf(ctx);
  const given = WAYS.filter((w) => input[w] !== undefined);
  if (given.length !== 1) throw badRequest(given[1] ?? 'invoices', `give exactly one of ${WAYS.join(', ')}`);
  const line = await lockBankLine(ctx, input.bankTransactionId);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'bank_matches',
    owner: ['bank_transaction_id', line.id],
  });
  if (replay) return { match: await getMatch(ctx, id), created: false };
  if (line.pending || line.superseded_at)
    throw conflict('A pending or superseded bank line is not reconciled; wait for it to post');
  if (line.status !== 'unreconciled')
    throw conflict(`This bank line is ${line.status} already; undo its match first`);
  const way = given[0]!;
  const items = await record(ctx, line, input, way, id);
  const total = sum(items.map((i) => i.amount));
  if (!total.equals(money(line.amount)))
    throw badRequest(
      way,
      `the amounts add up to ${total.toFixed(2)}, not the bank line's ${money(line.amount).toFixed(2)}`,
    );
  const kind: MatchKind = way === 'invoices' ? 'invoice' : way === 'bills' ? 'bill' : way;
  const p = ctx.principal;
  await ctx.db
    .insertInto('bank_matches')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      bank_account_id: line.bank_account_id,
      bank_transaction_id: line.id,
      kind,
      amount: line.amount,
      created_by_type: p.type,
      created_by: p.type === 'user' ? p.userId : p.type === 'api_key' ? p.keyId : null,
      auto,
    })
    .execute();
  await ctx.db
    .insertInto('bank_match_items')
    .values(
      items.map((it, i) => ({
        tenant_id: ctx.tenantId,
        match_id: id,
        line_no: i + 1,
        company_id: companyId,
        bank_account_id: line.bank_account_id,
        journal_entry_id: it.journalEntryId,
        invoice_payment_id: it.invoicePaymentId ?? null,
        bill_payment_id: it.billPaymentId ?? null,
        customer_credit_id: it.customerCreditId ?? null,
        amount: it.amount,
      })),
    )
    .execute();
  await ctx.db
    .updateTable('bank_transactions')
    .set({ status: 'reconciled', reconciled_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', line.id)
    .execute();
  return { match: await getMatch(ctx, id), created: true };
}

/** Records (or, for existing, checks) what the match claims; answers its items. */
async function record(
  ctx: WorkCtx,
  line: BankLine & { amount: string },
  input: MatchInput,
  way: (typeof WAYS)[number],
  matchId: string,
): Promise<Item[]> {
  const amount = money(line.amount);
  if (way === 'create')
    return [{ journalEntryId: await postCreate(ctx, line, input.create!, matchId), amount: line.amount }];
  if (way === 'transfer')
    return [
      {
        journalEntryId: await postTransfer(ctx, line, input.transfer!.bankAccountId, matchId),
        amount: line.amount,
      },
    ];
  if (way === 'existing') return existingItems(ctx, line, input.existing!);
  if (way === 'invoices') {
    const list = input.invoices!;
    if (!list.length) throw badRequest('invoices', 'name at least one invoice');
    if (!amount.isPositive()) throw badRequest('invoices', 'money out of the bank pays bills, not invoices');
    const amounts = await defaultAmounts(
      list.map((x) => x.amount),
      amount,
      (i) => invoiceDue(ctx, list[i]!.invoiceId),
      'invoices',
    );
    const out: Item[] = [];
    for (const [i, x] of list.entries()) {
      const { payment } = await recordPaymentCore(ctx, x.invoiceId, {
        amount: amounts[i]!.toNumber(),
        date: line.date,
        method: 'eft',
        reference: line.reference ?? (line.description.slice(0, 200) || undefined),
        bankAccountId: line.bank_account_id,
      });
      const credit = await ctx.db
        .selectFrom('customer_credits')
        .select('id')
        .where('tenant_id', '=', ctx.tenantId)
        .where('payment_id', '=', payment.id)
        .executeTakeFirst();
      out.push({
        journalEntryId: payment.entryId,
        amount: toSql(amounts[i]!),
        invoicePaymentId: payment.id,
        customerCreditId: credit?.id ?? null,
      });
    }
    return out;
  }
  const list = input.bills!;
  if (!list.length) throw badRequest('bills', 'name at least one bill');
  if (amount.isPositive()) throw badRequest('bills', 'money into the bank pays invoices, not bills');
  const amounts = await defaultAmounts(
    list.map((x) => x.amount),
    amount.abs(),
    (i) => billDue(ctx, list[i]!.billId),
    'bills',
  );
  const out: Item[] = [];
  for (const [i, x] of list.entries()) {
    const due = await billDue(ctx, x.billId);
    // The supplier side keeps no credit (bills.payments.ts): more than is due cannot be paid.
    if (amounts[i]!.greaterThan(due))
      throw unprocessable(
        `bills[${i}]: ${amounts[i]!.toFixed(2)} is more than the ${due.toFixed(2)} due, and a supplier's ` +
          'credit is not kept yet; match the excess separately (create) or pay the exact amount',
      );
    const { payment } = await payBillCore(ctx, x.billId, {
      amount: amounts[i]!.toNumber(),
      date: line.date,
      bankAccountId: line.bank_account_id,
      reference: line.reference ?? (line.description.slice(0, 200) || undefined),
    });
    out.push({
      journalEntryId: payment.entryId,
      amount: toSql(amounts[i]!.negated()),
      billPaymentId: payment.id,
    });
  }
  return out;
}

/**
 * The amount of each document: as given, else what is due on it; one document named alone
 * without an amount takes the whole bank line (an invoice's excess becomes credit).
 */
async function defaultAmounts(
  given: (MoneyInput | undefined)[],
  line: ReturnType<typeof money>,
  due: (i: number) => Promise<ReturnType<typeof money>>,
  field: string,
) {
  const out = [];
  for (const [i, a] of given.entries()) {
    if (a !== undefined) {
      const m = money(a);
      if (!m.isPositive() || !hasAtMostDecimals(m, 2))
        throw badRequest(`${field}[${i}].amount`, 'must be more than zero, at most two decimals');
      out.push(m);
    } else out.push(given.length === 1 ? line : await due(i));
  }
  return out;
}

async function invoiceDue(ctx: WorkCtx, id: string) {
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Document');
  return money(amountDue(row, (await settlements(ctx.db, ctx.tenantId, [id])).get(id)!));
}

async function billDue(ctx: WorkCtx, id: string) {
  const row = await findBillRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Bill');
  return money(amountDueOf(row, (await billSettlements(ctx.db, ctx.tenantId, [id])).get(id)!));
}

/**
 * An existing entry: its movement on the bank line's account, not reversed, not the account's
 * opening balance, and not claimed by another bank line (matched, never recorded again).
 */
async function existingItems(ctx: WorkCtx, line: BankLine, list: { journalEntryId: string }[]) {
  if (!list.length) throw badRequest('existing', 'name at least one journal entry');
  const out: Item[] = [];
  for (const [i, x] of list.entries()) {
    const field = `existing[${i}].journalEntryId`;
    const r = await sql<{
      id: string;
      moved: string | null;
      reversed: boolean;
      claimed: boolean;
      opening: boolean;
    }>`
      select e.id,
        (select sum(l.debit - l.credit) from journal_lines l
          where l.tenant_id = e.tenant_id and l.entry_id = e.id and l.account_id = ${line.bank_account_id})::text as moved,
        (e.reverses_entry_id is not null or exists (select 1 from journal_entries r
          where r.tenant_id = e.tenant_id and r.reverses_entry_id = e.id)) as reversed,
        exists (select 1 from bank_match_items m where m.tenant_id = e.tenant_id and m.journal_entry_id = e.id
          and m.bank_account_id = ${line.bank_account_id} and m.undone_at is null) as claimed,
        exists (select 1 from bank_accounts b where b.tenant_id = e.tenant_id and b.opening_entry_id = e.id) as opening
      from journal_entries e
      where e.tenant_id = ${ctx.tenantId} and e.company_id = ${companyOf(ctx)} and e.id = ${x.journalEntryId}`.execute(
      ctx.db,
    );
    const e = r.rows[0];
    if (!e) throw notFound('Journal entry');
    if (e.moved === null || money(e.moved).isZero())
      throw badRequest(field, 'the entry does not move the bank line’s account');
    if (e.reversed) throw conflict(`${field}: the entry is reversed (or a reversal)`, { field });
    if (e.opening) throw badRequest(field, 'the opening balance is not a bank movement');
    if (e.claimed) throw conflict(`${field}: already matched to another bank line`, { field });
    if (out.some((o) => o.journalEntryId === e.id)) throw badRequest(field, 'named twice');
    out.push({ journalEntryId: e.id, amount: money(e.moved).toFixed(2) });
  }
  return out;
}
