// The suggestions of a page of unreconciled bank lines (or of one line): candidates loaded once
// for the page (reconciliation.candidates.ts), then ranked per line (reconciliation.rank.ts).

import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { pageOf, paging } from '../../platform/http/paging.ts';
import { notFound } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { bankAccountOf } from './bank-accounts.service.ts';
import { loadCandidates } from './reconciliation.candidates.ts';
import { rank } from './reconciliation.rank.ts';

type Line = Awaited<ReturnType<typeof unreconciled>>[number];

/**
 * Unreconciled posted lines of the account, oldest first: those of the ids (one array parameter,
 * whatever their number), or a page of them after a (date, id), of some amounts only.
 */
export function unreconciled(
  db: Tx,
  tenantId: string,
  companyId: string,
  bankAccountId: string,
  ids?: readonly string[],
  page?: {
    after?: { date: string; id: string };
    limit: number;
    /** Only lines of these amounts: money in of `in`, money out of `out` (two decimals, unsigned). */
    amounts?: { in: readonly string[]; out: readonly string[] };
  },
) {
  let q = db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('bank_account_id', '=', bankAccountId)
    .where('status', '=', 'unreconciled')
    .where('superseded_at', 'is', null)
    .where('pending', '=', false);
  if (ids) q = q.where(sql<boolean>`id = any(${[...ids]}::uuid[])`);
  if (page?.amounts) {
    const { in: inn, out } = page.amounts;
    q = q.where(
      sql<boolean>`((amount > 0 and amount = any(${[...inn]}::numeric[])) or (amount < 0 and -amount = any(${[...out]}::numeric[])))`,
    );
  }
  if (page?.after) {
    const { date, id } = page.after;
    q = q.where(sql<boolean>`(date, id) > (${date}::date, ${id}::uuid)`);
  }
  q = q.orderBy('date').orderBy('id');
  return page ? q.limit(page.limit).execute() : q.execute();
}

/** Each line with its ranked suggestions. */
export async function suggestionsOf(
  db: Tx,
  tenantId: string,
  companyId: string,
  bankAccountId: string,
  lines: Line[],
) {
  const candidates = await loadCandidates(db, tenantId, companyId, bankAccountId, lines);
  return lines.map((l) => ({ line: l, suggestions: rank(l, candidates) }));
}

const answer = (r: Awaited<ReturnType<typeof suggestionsOf>>[number]) => ({
  bankTransactionId: r.line.id,
  date: r.line.date,
  amount: toNumber(r.line.amount),
  description: r.line.description,
  reference: r.line.reference,
  suggestions: r.suggestions,
});

export async function suggestionsPage(
  ctx: TenantCtx,
  query: { bankAccountId: string; page?: number | undefined; limit?: number | undefined },
) {
  const companyId = companyOf(ctx);
  await bankAccountOf(ctx.db, ctx.tenantId, companyId, query.bankAccountId);
  const p = paging(query);
  const base = ctx.db
    .selectFrom('bank_transactions')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('bank_account_id', '=', query.bankAccountId)
    .where('status', '=', 'unreconciled')
    .where('superseded_at', 'is', null)
    .where('pending', '=', false);
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const lines = await base
    .selectAll()
    .orderBy('date')
    .orderBy('id')
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  const ranked = await suggestionsOf(ctx.db, ctx.tenantId, companyId, query.bankAccountId, lines);
  return pageOf(ranked.map(answer), Number(total), p);
}

export async function suggestionsForLine(ctx: TenantCtx, id: string) {
  const line = await ctx.db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!line) throw notFound('Bank transaction');
  // A reconciled or excluded line has nothing to suggest.
  const ranked =
    line.status === 'unreconciled' && !line.pending && !line.superseded_at
      ? await suggestionsOf(ctx.db, ctx.tenantId, line.company_id, line.bank_account_id, [line])
      : [{ line, suggestions: [] }];
  return answer(ranked[0]!);
}
