// The posting service every module calls: one balanced journal entry, written in the
// caller's transaction, never changed afterwards. A void posts a reversal. The database
// checks the same rules again (migrations/0008_ledger.sql); these checks come first so that
// a caller gets a 400 naming the line, not a refused commit.
import type { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, type MoneyInput, money, sum, toSql } from '../../platform/money/money.ts';
import type { TaxCode } from './ledger.tables.ts';

/** What posting needs of the caller: its transaction, tenant and (for the record) who acts. */
export interface LedgerCtx {
  db: Tx;
  tenantId: string;
  /** Who posts: a user, an API key, or the system (a scheduled job). */
  actor?: { type: 'user' | 'api_key' | 'system'; id: string | null };
}

export interface PostingLine {
  accountId: string;
  debit?: MoneyInput | null;
  credit?: MoneyInput | null;
  description?: string | null;
  contactId?: string | null;
  /** The document this line opens or settles (aged debtors and creditors group by it). */
  openItemId?: string | null;
  dueDate?: string | null;
  taxCode?: TaxCode | null;
  taxRate?: MoneyInput | null;
  /** One of the company's cost centres (the caller has checked it: assertCostCentre). */
  costCentreId?: string | null;
}

export interface Posting {
  companyId: string;
  date: string;
  description: string;
  reference?: string | null;
  /** What posts: 'manual_journal', 'invoice', 'payment', ... and that record's id. */
  source: { type: string; id?: string | null };
  lines: PostingLine[];
  /** A person's manual journal: control accounts are refused. Documents may post to them. */
  manual?: boolean;
  /** The entry's id (a manual journal's clientId); a new UUID when absent. */
  entryId?: string;
  /** Set by reverse(). */
  reversesEntryId?: string;
}

/** Names a field of the posting's lines, as the manual-journal body names them. */
const lineField = (i: number, field: string) => `lines[${i}].${field}`;

interface CheckedLine extends PostingLine {
  /** Its place in the posting's lines, for the field a problem names. */
  index: number;
  debitAmount: Decimal;
  creditAmount: Decimal;
}

function checkAmounts(lines: PostingLine[]): CheckedLine[] {
  const checked = lines.map((line, i) => {
    const debit = money(line.debit);
    const credit = money(line.credit);
    for (const [field, v] of [
      ['debit', debit],
      ['credit', credit],
    ] as const) {
      if (v.isNegative()) throw badRequest(lineField(i, field), 'must not be negative');
      if (!v.isFinite()) throw badRequest(lineField(i, field), 'must be a number');
      if (!hasAtMostDecimals(v, 2)) throw badRequest(lineField(i, field), 'must have at most two decimals');
      if (v.abs().greaterThanOrEqualTo('1e16')) throw badRequest(lineField(i, field), 'is too large');
    }
    if (!debit.isZero() && !credit.isZero())
      throw badRequest(lineField(i, 'debit'), 'a line is either a debit or a credit, not both');
    if ((line.taxCode == null) !== (line.taxRate == null))
      throw badRequest(lineField(i, 'taxRate'), 'taxCode and taxRate go together');
    return { ...line, index: i, debitAmount: debit, creditAmount: credit };
  });
  // Zero lines carry nothing; a document line of zero (a free item) posts nothing.
  const moving = checked.filter((l) => !l.debitAmount.isZero() || !l.creditAmount.isZero());
  if (moving.length < 2) throw badRequest('lines', 'a journal needs at least two lines with an amount');
  const debits = sum(moving.map((l) => l.debitAmount));
  const credits = sum(moving.map((l) => l.creditAmount));
  if (!debits.equals(credits)) {
    throw badRequest(
      'lines',
      `debits (${debits.toFixed(2)}) and credits (${credits.toFixed(2)}) must be equal; they differ by ${debits.minus(credits).abs().toFixed(2)}`,
    );
  }
  return moving;
}

/** Refuses a date on or before the company's lock date; the row is shared-locked until commit. */
export async function assertOpenPeriod(ctx: LedgerCtx, companyId: string, date: string, field = 'date') {
  const settings = await ctx.db
    .selectFrom('ledger_settings')
    .select('lock_date')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .forShare()
    .executeTakeFirst();
  if (settings?.lock_date && date <= settings.lock_date) {
    throw conflict(`${field}: the books are locked up to ${settings.lock_date}; post after that date`, {
      code: 'PERIOD_LOCKED',
      field,
      lockDate: settings.lock_date,
    });
  }
}

async function checkAccounts(ctx: LedgerCtx, p: Posting, lines: CheckedLine[]) {
  const ids = [...new Set(lines.map((l) => l.accountId))];
  const rows = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'is_control', 'is_active', 'name'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', p.companyId)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const line of lines) {
    const i = line.index;
    const account = byId.get(line.accountId);
    if (!account) throw badRequest(lineField(i, 'accountId'), 'no such account in this company');
    if (!account.is_active) throw badRequest(lineField(i, 'accountId'), `${account.name} is deactivated`);
    if (p.manual && account.is_control) {
      throw badRequest(
        lineField(i, 'accountId'),
        `${account.name} is a control account: only documents post to it, never a manual journal`,
      );
    }
  }
}

/**
 * Posts one balanced entry in the caller's transaction and answers its id. All its lines go
 * in one INSERT (the database's balance and cash-flow triggers rely on it).
 */
export async function post(ctx: LedgerCtx, p: Posting): Promise<string> {
  const lines = checkAmounts(p.lines);
  await checkAccounts(ctx, p, lines);
  await assertOpenPeriod(ctx, p.companyId, p.date);
  const entryId = p.entryId ?? crypto.randomUUID();
  await ctx.db
    .insertInto('journal_entries')
    .values({
      tenant_id: ctx.tenantId,
      id: entryId,
      company_id: p.companyId,
      date: p.date,
      description: p.description,
      reference: p.reference ?? null,
      source_type: p.source.type,
      source_id: p.source.id ?? null,
      reverses_entry_id: p.reversesEntryId ?? null,
      created_by_type: ctx.actor?.type ?? 'system',
      created_by: ctx.actor?.id ?? null,
    })
    .execute();
  await ctx.db
    .insertInto('journal_lines')
    .values(
      lines.map((l, i) => ({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        entry_id: entryId,
        line_no: i + 1,
        company_id: p.companyId,
        date: p.date,
        account_id: l.accountId,
        debit: toSql(l.debitAmount),
        credit: toSql(l.creditAmount),
        description: l.description ?? null,
        contact_id: l.contactId ?? null,
        open_item_id: l.openItemId ?? null,
        due_date: l.dueDate ?? null,
        tax_code: l.taxCode ?? null,
        tax_rate: l.taxRate == null ? null : money(l.taxRate).toFixed(3),
        // Named only when a line has one: the books of an older schema (the migration tests post
        // before 0041) have no such column.
        ...(l.costCentreId ? { cost_centre_id: l.costCentreId } : {}),
      })),
    )
    .execute();
  return entryId;
}

export interface ReverseOptions {
  /** The reversal's date: by default the original's, so that the entry nets to zero in every report. */
  date?: string;
  description?: string;
  source?: { type: string; id?: string | null };
}

/** The reversal of an entry, if it has one. */
export async function reversalOf(ctx: LedgerCtx, entryId: string): Promise<string | undefined> {
  const r = await ctx.db
    .selectFrom('journal_entries')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('reverses_entry_id', '=', entryId)
    .executeTakeFirst();
  return r?.id;
}

/**
 * Posts the mirror image of an entry (debits become credits) and answers its id. An entry is
 * reversed at most once (409 the second time; the database's unique index stands behind it).
 */
export async function reverse(
  ctx: LedgerCtx,
  entryId: string,
  options: ReverseOptions = {},
): Promise<string> {
  const entry = await ctx.db
    .selectFrom('journal_entries')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', entryId)
    .executeTakeFirst();
  if (!entry) throw notFound('Journal entry');
  if (entry.reverses_entry_id)
    throw conflict('A reversal cannot itself be reversed; post a new entry instead');
  if (await reversalOf(ctx, entryId))
    throw conflict('This entry has already been reversed', { code: 'ALREADY_REVERSED' });
  const lines = await ctx.db
    .selectFrom('journal_lines')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('entry_id', '=', entryId)
    .orderBy('line_no')
    .execute();
  return post(ctx, {
    companyId: entry.company_id,
    date: options.date ?? entry.date,
    description: options.description ?? `Reversal of: ${entry.description}`,
    reference: entry.reference,
    source: options.source ?? { type: entry.source_type, id: entry.source_id },
    reversesEntryId: entry.id,
    lines: lines.map((l) => ({
      accountId: l.account_id,
      debit: l.credit,
      credit: l.debit,
      description: l.description,
      contactId: l.contact_id,
      openItemId: l.open_item_id,
      dueDate: l.due_date,
      taxCode: l.tax_code,
      taxRate: l.tax_rate,
      costCentreId: l.cost_centre_id,
    })),
  });
}

/** The account a module posts to by its role ('debtors_control', 'vat_output', ...). */
export async function systemAccount(ctx: LedgerCtx, companyId: string, key: string): Promise<string> {
  const r = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('system_key', '=', key)
    .executeTakeFirst();
  if (!r) throw new Error(`The company ${companyId} has no ${key} account`);
  return r.id;
}

/** Seeds the default South African chart and the ledger settings of a new company. */
export async function seedDefaultChart(db: Tx, tenantId: string, companyId: string): Promise<void> {
  await sql`select bp_seed_default_chart(${tenantId}::uuid, ${companyId}::uuid)`.execute(db);
}

/**
 * Makes the chart follow the company's legal form (migration 0022): a sole proprietor or a
 * partnership has an active Drawings account (added when missing), any other form has it
 * deactivated. Called after the form changes.
 */
export async function applyLegalForm(db: Tx, tenantId: string, companyId: string): Promise<void> {
  await sql`select bp_apply_legal_form(${tenantId}::uuid, ${companyId}::uuid)`.execute(db);
}

/**
 * The ledger context of a request (the caller as the poster), or of a job acting for the tenant
 * (the system as the poster: a recurring invoice released on its schedule).
 */
export function ledgerCtxOf(ctx: {
  db: Tx;
  tenantId: string;
  principal: { type: 'user'; userId: string } | { type: 'api_key'; keyId: string } | { type: 'system' };
}): LedgerCtx {
  const p = ctx.principal;
  const actor: LedgerCtx['actor'] =
    p.type === 'user'
      ? { type: 'user', id: p.userId }
      : p.type === 'api_key'
        ? { type: 'api_key', id: p.keyId }
        : { type: 'system', id: null };
  return { db: ctx.db, tenantId: ctx.tenantId, actor };
}
