// Manual journals, the journal entries every document posts, the ledger's lines, and the
// company's lock date.

import { sql } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { sum, toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { assertCostCentre } from './cost-centres.service.ts';
import type {
  Journal,
  JournalCreate,
  JournalsQuery,
  LedgerLine,
  LedgerQuery,
  LedgerSettings,
  LedgerSettingsUpdate,
} from './journals.schemas.ts';
import { checkJournalVat, vatAccountsOf } from './journals.vat.ts';
import { assertOpenPeriod, ledgerCtxOf, post, reversalOf, reverse } from './posting.ts';
import { vatRegisteredOn } from './vat-registration.ts';

export const MANUAL_JOURNAL = 'manual_journal';

type JournalOut = Static<typeof Journal>;

function checkRange(from: string | undefined, to: string | undefined) {
  if (from && to && to < from) throw badRequest('to', 'must not be before from');
}

/** Account ids for lines that name an account by code. */
async function resolveAccounts(ctx: TenantCtx, lines: Static<typeof JournalCreate>['lines']) {
  const codes = lines.filter((l) => !l.accountId && l.accountCode).map((l) => l.accountCode!.toLowerCase());
  const byCode = new Map<string, string>();
  if (codes.length) {
    const rows = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'code'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', companyOf(ctx))
      .where((eb) => eb(eb.fn('lower', ['code']), 'in', codes))
      .execute();
    for (const r of rows) byCode.set(r.code.toLowerCase(), r.id);
  }
  return lines.map((l, i) => {
    if (l.accountId && l.accountCode)
      throw badRequest(`lines[${i}].accountCode`, 'give accountId or accountCode, not both');
    if (l.accountId) return l.accountId;
    if (!l.accountCode) throw badRequest(`lines[${i}].accountId`, 'is required (or accountCode)');
    const id = byCode.get(l.accountCode.toLowerCase());
    if (!id)
      throw badRequest(`lines[${i}].accountCode`, `no account with code ${l.accountCode} in this company`);
    return id;
  });
}

export async function createJournal(
  ctx: TenantCtx,
  input: Static<typeof JournalCreate>,
): Promise<JournalOut> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'journal_entries',
    owner: ['company_id', companyId],
    kind: ['source_type', MANUAL_JOURNAL],
  });
  if (replay) {
    ctx.reply.code(200);
    return getJournal(ctx, id);
  }
  const accountIds = await resolveAccounts(ctx, input.lines);
  for (const [i, l] of input.lines.entries()) {
    if (l.taxCode && l.taxRate === undefined)
      throw badRequest(`lines[${i}].taxRate`, 'is required with taxCode');
    if (l.taxRate !== undefined && !l.taxCode)
      throw badRequest(`lines[${i}].taxCode`, 'is required with taxRate');
  }
  for (const [i, l] of input.lines.entries()) {
    if (l.costCentreId)
      await assertCostCentre(ctx.db, ctx.tenantId, companyId, l.costCentreId, `lines[${i}].costCentreId`);
  }
  if (input.lines.some((l) => l.taxCode)) {
    // VAT tags must agree with the code's rate on the date, the registration and each other.
    const vatAccounts = await vatAccountsOf(ctx.db, ctx.tenantId, companyId, accountIds);
    const registered = await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, input.date);
    checkJournalVat(
      input.lines.map((l, i) => ({
        debit: l.debit ?? 0,
        credit: l.credit ?? 0,
        taxCode: l.taxCode,
        taxRate: l.taxRate,
        vatAccount: vatAccounts.get(accountIds[i]!.toLowerCase()) ?? null,
      })),
      input.date,
      registered,
    );
  }
  // A retry racing the first submission waits here until the first commits, then finds it (200).
  await sql`select pg_advisory_xact_lock(hashtext(${`journal:${id}`}))`.execute(ctx.db);
  const again = await ctx.db
    .selectFrom('journal_entries')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (again) {
    ctx.reply.code(200);
    return getJournal(ctx, id);
  }
  await post(ledgerCtxOf(ctx), {
    entryId: id,
    companyId,
    date: input.date,
    description: input.description,
    reference: input.reference ?? null,
    source: { type: MANUAL_JOURNAL, id },
    manual: true,
    lines: input.lines.map((l, i) => ({
      accountId: accountIds[i]!,
      debit: l.debit ?? 0,
      credit: l.credit ?? 0,
      description: l.description ?? null,
      contactId: l.contactId ?? null,
      taxCode: l.taxCode ?? null,
      taxRate: l.taxRate ?? null,
      costCentreId: l.costCentreId ?? null,
    })),
  });
  ctx.reply.code(201);
  return getJournal(ctx, id);
}

export async function getJournal(ctx: TenantCtx, id: string): Promise<JournalOut> {
  const entry = await ctx.db
    .selectFrom('journal_entries as e')
    .leftJoin('journal_entries as r', (j) =>
      j.onRef('r.tenant_id', '=', 'e.tenant_id').onRef('r.reverses_entry_id', '=', 'e.id'),
    )
    .selectAll('e')
    .select(['r.id as reversed_by', 'r.created_at as reversed_at'])
    .where('e.tenant_id', '=', ctx.tenantId)
    .where('e.company_id', '=', companyOf(ctx))
    .where('e.id', '=', id)
    .executeTakeFirst();
  if (!entry) throw notFound('Journal entry');
  const lines = await ctx.db
    .selectFrom('journal_lines as l')
    .innerJoin('accounts as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .selectAll('l')
    .select(['a.code', 'a.name'])
    .where('l.tenant_id', '=', ctx.tenantId)
    .where('l.entry_id', '=', id)
    .orderBy('l.line_no')
    .execute();
  return {
    id: entry.id,
    companyId: entry.company_id,
    date: entry.date,
    description: entry.description,
    reference: entry.reference,
    sourceType: entry.source_type,
    sourceId: entry.source_id,
    status: entry.reverses_entry_id ? 'reversal' : entry.reversed_by ? 'reversed' : 'posted',
    reversesEntryId: entry.reverses_entry_id,
    reversedByEntryId: entry.reversed_by,
    totalDebit: toNumber(sum(lines.map((l) => l.debit))),
    totalCredit: toNumber(sum(lines.map((l) => l.credit))),
    createdAt: entry.created_at.toISOString(),
    updatedAt: (entry.reversed_at ?? entry.created_at).toISOString(),
    lines: lines.map((l) => ({
      id: l.id,
      lineNo: l.line_no,
      accountId: l.account_id,
      accountCode: l.code,
      accountName: l.name,
      debit: toNumber(l.debit),
      credit: toNumber(l.credit),
      description: l.description,
      contactId: l.contact_id,
      openItemId: l.open_item_id,
      dueDate: l.due_date,
      taxCode: l.tax_code,
      taxRate: l.tax_rate === null ? null : Number(l.tax_rate),
      costCentreId: l.cost_centre_id,
    })),
  };
}

/** An entry's updatedAt: its reversal's posting when it has one, else its own. */
const UPDATED_AT = sql<Date>`coalesce(r.created_at, e.created_at)`;

export async function listJournals(
  ctx: TenantCtx,
  query: Static<typeof JournalsQuery>,
): Promise<Page<JournalOut>> {
  checkRange(query.from, query.to);
  const p = paging(query);
  const order = sortOrder<'date' | 'createdAt' | 'updatedAt'>(query.sort, '-date');
  let q = ctx.db
    .selectFrom('journal_entries as e')
    .leftJoin('journal_entries as r', (j) =>
      j.onRef('r.tenant_id', '=', 'e.tenant_id').onRef('r.reverses_entry_id', '=', 'e.id'),
    )
    .where('e.tenant_id', '=', ctx.tenantId)
    .where('e.company_id', '=', companyOf(ctx));
  if (query.from) q = q.where('e.date', '>=', query.from);
  if (query.to) q = q.where('e.date', '<=', query.to);
  if (query.sourceType) q = q.where('e.source_type', '=', query.sourceType);
  if (query.updatedSince) {
    // Posted since, or reversed since: both read journal_entries_by_created.
    const since = new Date(query.updatedSince);
    q = q.where((eb) => eb.or([eb('e.created_at', '>=', since), eb('r.created_at', '>=', since)]));
  }
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const dir = order.direction;
  let sorted = q.select('e.id');
  if (order.key === 'date') sorted = sorted.orderBy('e.date', dir).orderBy('e.created_at', dir);
  else if (order.key === 'createdAt') sorted = sorted.orderBy('e.created_at', dir);
  else sorted = sorted.orderBy(UPDATED_AT, dir);
  const ids = await sorted.orderBy('e.id', dir).limit(p.limit).offset(p.offset).execute();
  const items: JournalOut[] = [];
  for (const { id } of ids) items.push(await getJournal(ctx, id));
  return pageOf(items, Number(n), p);
}

/** Voids a manual journal by posting its reversal; documents are voided through their own routes. */
export async function voidJournal(ctx: TenantCtx, id: string, date: string | undefined): Promise<JournalOut> {
  const entry = await ctx.db
    .selectFrom('journal_entries')
    .select(['source_type', 'reverses_entry_id', 'date'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!entry) throw notFound('Journal entry');
  if (entry.source_type !== MANUAL_JOURNAL) {
    throw conflict(
      `This entry was posted by a ${entry.source_type.replace('_', ' ')}; void that document instead`,
      {
        code: 'NOT_A_MANUAL_JOURNAL',
      },
    );
  }
  if (entry.reverses_entry_id) throw conflict('This entry is a reversal; it cannot be voided');
  if (await reversalOf(ledgerCtxOf(ctx), id))
    throw conflict('This journal is already void', { code: 'ALREADY_REVERSED' });
  if (date && date < entry.date) throw badRequest('date', "must not be before the journal's own date");
  await reverse(ledgerCtxOf(ctx), id, {
    ...(date ? { date } : {}),
    source: { type: MANUAL_JOURNAL, id },
  });
  return getJournal(ctx, id);
}

export async function listLedgerLines(
  ctx: TenantCtx,
  query: Static<typeof LedgerQuery>,
): Promise<Page<Static<typeof LedgerLine>>> {
  checkRange(query.from, query.to);
  const p = paging(query);
  const order = sortOrder<'date' | 'createdAt'>(query.sort, 'date');
  let q = ctx.db
    .selectFrom('journal_lines as l')
    .innerJoin('journal_entries as e', (j) =>
      j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
    )
    .innerJoin('accounts as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .where('l.tenant_id', '=', ctx.tenantId)
    .where('l.company_id', '=', companyOf(ctx));
  if (query.from) q = q.where('l.date', '>=', query.from);
  if (query.to) q = q.where('l.date', '<=', query.to);
  if (query.accountId) q = q.where('l.account_id', '=', query.accountId);
  if (query.contactId) q = q.where('l.contact_id', '=', query.contactId);
  if (query.costCentreId) q = q.where('l.cost_centre_id', '=', query.costCentreId);
  if (query.sourceType) q = q.where('e.source_type', '=', query.sourceType);
  // Lines never change: what changed since is what was posted since.
  if (query.updatedSince) q = q.where('e.created_at', '>=', new Date(query.updatedSince));
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const dir = order.direction;
  // By date: the posting order within a day. Ties end on the entry and the line's number,
  // which name one line, so pages never repeat or skip one.
  const first = order.key === 'date' ? q.orderBy('l.date', dir) : q;
  const rows = await first
    .orderBy('e.created_at', dir)
    .orderBy('l.entry_id', dir)
    .orderBy('l.line_no', dir)
    .selectAll('l')
    .select([
      'a.code',
      'a.name',
      'e.description as entry_description',
      'e.reference',
      'e.source_type',
      'e.source_id',
      'e.created_at',
    ])
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  return pageOf(
    rows.map((l) => ({
      id: l.id,
      entryId: l.entry_id,
      lineNo: l.line_no,
      date: l.date,
      accountId: l.account_id,
      accountCode: l.code,
      accountName: l.name,
      debit: toNumber(l.debit),
      credit: toNumber(l.credit),
      description: l.description,
      entryDescription: l.entry_description,
      reference: l.reference,
      contactId: l.contact_id,
      sourceType: l.source_type,
      sourceId: l.source_id,
      taxCode: l.tax_code,
      taxRate: l.tax_rate === null ? null : Number(l.tax_rate),
      costCentreId: l.cost_centre_id,
      createdAt: l.created_at.toISOString(),
    })),
    Number(n),
    p,
  );
}

export async function getLedgerSettings(ctx: TenantCtx): Promise<Static<typeof LedgerSettings>> {
  const r = await ctx.db
    .selectFrom('ledger_settings')
    .select(['lock_date', 'financial_year_end_month'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .executeTakeFirst();
  return { lockDate: r?.lock_date ?? null, financialYearEndMonth: r?.financial_year_end_month ?? 2 };
}

export async function updateLedgerSettings(
  ctx: TenantCtx,
  input: Static<typeof LedgerSettingsUpdate>,
): Promise<Static<typeof LedgerSettings>> {
  const companyId = companyOf(ctx);
  const set: Record<string, unknown> = { updated_at: ctx.deps.now() };
  if (input.lockDate !== undefined) set.lock_date = input.lockDate;
  if (input.financialYearEndMonth !== undefined) set.financial_year_end_month = input.financialYearEndMonth;
  // FOR UPDATE on the settings row waits for postings in flight (they hold it FOR SHARE), so
  // none slips in before the new lock date once this commits.
  await ctx.db
    .insertInto('ledger_settings')
    .values({ tenant_id: ctx.tenantId, company_id: companyId })
    .onConflict((oc) => oc.columns(['tenant_id', 'company_id']).doNothing())
    .execute();
  await ctx.db
    .updateTable('ledger_settings')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .execute();
  return getLedgerSettings(ctx);
}

export { assertOpenPeriod };
