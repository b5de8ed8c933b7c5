// The bank lines: a paged list with its filters, one line, a person's coding, exclude and
// include. Superseded lines (a feed's pending line once posted) are hidden from the list except
// to a sync (updatedSince), which learns of them by supersededAt; pending lines are listed with
// pending: true. A page is read with its rules' names in one more statement, not one per line.

import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { money, toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { Coding, Split } from './bank-rules.match.ts';
import type { BankTransactionCoding } from './bank-rules.schemas.ts';
import { actionsOut } from './bank-rules.service.ts';
import './bank-rules.tables.ts';
import { checkCoding } from './bank-rules.validate.ts';
import type { BankTransactionExclude, BankTransactionListQuery } from './bank-transactions.schemas.ts';
import type { BankTransactionsTable } from './banking.tables.ts';

type Row = Selectable<BankTransactionsTable>;

function codingOf(r: Row): Coding {
  const c: Coding = {};
  if (r.coded_account_id) c.accountId = r.coded_account_id;
  if (r.coded_contact_id) c.contactId = r.coded_contact_id;
  if (r.coded_tax_code) c.taxCode = r.coded_tax_code;
  if (r.coded_description) c.description = r.coded_description;
  if (r.coded_cost_centre_id) c.costCentreId = r.coded_cost_centre_id;
  if (r.coded_splits) c.splits = r.coded_splits as Split[];
  return c;
}

function toRecord(r: Row, rules: Map<string, string>) {
  const c = actionsOut(codingOf(r));
  return {
    id: r.id,
    companyId: r.company_id,
    bankAccountId: r.bank_account_id,
    date: r.date,
    valueDate: r.value_date,
    amount: toNumber(r.amount),
    direction: money(r.amount).isNegative() ? ('out' as const) : ('in' as const),
    description: r.description,
    reference: r.reference,
    payee: r.payee,
    externalId: r.external_id,
    runningBalance: r.running_balance === null ? null : toNumber(r.running_balance),
    source: r.source,
    statementId: r.statement_id,
    sequence: r.sequence,
    pending: r.pending,
    supersededAt: r.superseded_at?.toISOString() ?? null,
    status: r.status,
    excludedReason: r.excluded_reason,
    reconciledAt: r.reconciled_at?.toISOString() ?? null,
    rule: r.rule_id ? { id: r.rule_id, name: rules.get(r.rule_id) ?? '' } : null,
    ruleAppliedAt: r.rule_applied_at?.toISOString() ?? null,
    codedBy: r.coded_by,
    coding: {
      accountId: c.accountId ?? null,
      contactId: c.contactId ?? null,
      taxCode: c.taxCode ?? null,
      description: c.description ?? null,
      costCentreId: c.costCentreId ?? null,
      splits: c.splits ?? null,
    },
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export type BankTransactionRecord = ReturnType<typeof toRecord>;

/** The lines as answered, with the names of the rules that touched them (one statement). */
async function records(db: Tx, tenantId: string, rows: Row[]): Promise<BankTransactionRecord[]> {
  const ids = [...new Set(rows.map((r) => r.rule_id).filter((id): id is string => Boolean(id)))];
  const names = new Map<string, string>();
  if (ids.length)
    for (const r of await db
      .selectFrom('bank_rules')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', ids)
      .execute())
      names.set(r.id, r.name);
  return rows.map((r) => toRecord(r, names));
}

const SORT_COLUMNS: Record<string, string[]> = {
  date: ['date', 'sequence'],
  updatedAt: ['updated_at'],
  createdAt: ['created_at'],
};

/** % and _ taken literally in an ILIKE pattern. */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, '\\$&');

export async function listBankTransactions(
  ctx: TenantCtx,
  query: Static<typeof BankTransactionListQuery>,
): Promise<Page<BankTransactionRecord>> {
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  const min = query.amountMin === undefined ? undefined : money(query.amountMin).toFixed(2);
  const max = query.amountMax === undefined ? undefined : money(query.amountMax).toFixed(2);
  if (min !== undefined && max !== undefined && money(max).lt(min))
    throw badRequest('amountMax', 'must not be below amountMin');
  const p = paging(query);
  const order = sortOrder<string>(query.sort, '-date');
  let q = ctx.db
    .selectFrom('bank_transactions')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('superseded_at', 'is', null);
  if (query.bankAccountId) q = q.where('bank_account_id', '=', query.bankAccountId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.from) q = q.where('date', '>=', query.from);
  if (query.to) q = q.where('date', '<=', query.to);
  if (query.direction) q = q.where('amount', query.direction === 'in' ? '>' : '<', '0');
  if (min !== undefined) q = q.where(sql<boolean>`abs(amount) >= ${min}::numeric`);
  if (max !== undefined) q = q.where(sql<boolean>`abs(amount) <= ${max}::numeric`);
  if (query.ruleId) q = q.where('rule_id', '=', query.ruleId);
  if (query.q) {
    const like = `%${likeEscaped(query.q.trim())}%`;
    q = q.where((eb) =>
      eb.or([eb('description', 'ilike', like), eb('reference', 'ilike', like), eb('payee', 'ilike', like)]),
    );
  }
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key] ?? ['date'], direction: order.direction },
    p,
  );
  return pageOf(await records(ctx.db, ctx.tenantId, rows as Row[]), total, p);
}

async function findRow(ctx: TenantCtx, id: string, lock = false): Promise<Row> {
  const q = ctx.db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id);
  const r = await (lock ? q.forUpdate() : q).executeTakeFirst();
  if (!r) throw notFound('Bank transaction');
  return r;
}

export async function getBankTransaction(ctx: TenantCtx, id: string): Promise<BankTransactionRecord> {
  return (await records(ctx.db, ctx.tenantId, [await findRow(ctx, id)]))[0]!;
}

/** A line that may still change: not superseded, not reconciled (409 otherwise). */
function assertOpen(r: Row, doing: string) {
  if (r.superseded_at)
    throw conflict(`The line was superseded by the posted line ${r.superseded_by}; ${doing} that one`);
  if (r.status === 'reconciled')
    throw conflict(`The line is reconciled; undo the reconciliation before you ${doing} it`, {
      code: 'ALREADY_RECONCILED',
    });
}

/** PATCH: a person's coding. Given fields replace, null clears; splits replace the account. */
export async function codeBankTransaction(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BankTransactionCoding>,
): Promise<BankTransactionRecord> {
  const r = await findRow(ctx, id, true);
  assertOpen(r, 'code');
  if (r.status === 'excluded') throw conflict('The line is excluded; include it before coding it');
  const merged: Coding = { ...codingOf(r) };
  // A split given takes the place of the account, tax code and cost centre held, and an
  // account given takes the place of a split held (naming both in one body is a 400 below).
  if (input.splits) for (const f of ['accountId', 'taxCode', 'costCentreId'] as const) delete merged[f];
  if (input.accountId && input.splits === undefined) delete merged.splits;
  for (const [k, v] of Object.entries(input)) if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  const c = await checkCoding(ctx.db, ctx.tenantId, companyOf(ctx), merged, '');
  const empty = Object.keys(c).length === 0;
  await ctx.db
    .updateTable('bank_transactions')
    .set({
      coded_by: empty ? null : 'person',
      // Cleared by a person: the rules may code it again; otherwise the rule that touched it stays named.
      ...(empty ? { rule_id: null, rule_applied_at: null } : {}),
      coded_account_id: c.accountId ?? null,
      coded_contact_id: c.contactId ?? null,
      coded_tax_code: c.taxCode ?? null,
      coded_description: c.description ?? null,
      coded_cost_centre_id: c.costCentreId ?? null,
      coded_splits: c.splits ? JSON.stringify(c.splits) : null,
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getBankTransaction(ctx, id);
}

/** Sets a line aside (a transfer recorded elsewhere, a bank error reversed the same day). */
export async function excludeBankTransaction(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BankTransactionExclude>,
): Promise<BankTransactionRecord> {
  const r = await findRow(ctx, id, true);
  assertOpen(r, 'exclude');
  await ctx.db
    .updateTable('bank_transactions')
    .set({ status: 'excluded', excluded_reason: input.reason.trim() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getBankTransaction(ctx, id);
}

/** An excluded line back to unreconciled (an unreconciled one stays as it is). */
export async function includeBankTransaction(ctx: TenantCtx, id: string): Promise<BankTransactionRecord> {
  const r = await findRow(ctx, id, true);
  assertOpen(r, 'include');
  if (r.status === 'excluded')
    await ctx.db
      .updateTable('bank_transactions')
      .set({ status: 'unreconciled', excluded_reason: null })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  return getBankTransaction(ctx, id);
}
