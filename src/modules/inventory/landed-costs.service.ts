// Landed costs: a draft naming the bill lines that carry a charge (freight, duty) and the stock
// receipts it belongs to; posting spreads it (landed-costs.post.ts). A bill line's amount (its
// net, excluding VAT) can be spread once in full: what other live landed costs took of it is
// not available again (409 BILL_LINE_USED).

import { type Selectable, sql } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { hasAtMostDecimals, money, sum, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { basisOf, largestRemainder } from './landed-costs.allocate.ts';
import type { LandedCost, LandedCostCreate, LandedCostListQuery } from './landed-costs.schemas.ts';
import type { LandedCostsTable } from './stock.tables.ts';

type Rec = Static<typeof LandedCost>;
type Row = Selectable<LandedCostsTable>;

async function records(ctx: TenantCtx, rows: Row[]): Promise<Rec[]> {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const charges = await ctx.db
    .selectFrom('landed_cost_charges')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('landed_cost_id', 'in', ids)
    .orderBy('id')
    .execute();
  const allocations = await ctx.db
    .selectFrom('landed_cost_allocations as a')
    .innerJoin('stock_movements as m', (j) =>
      j.onRef('m.tenant_id', '=', 'a.tenant_id').onRef('m.id', '=', 'a.movement_id'),
    )
    .select(['a.landed_cost_id', 'a.movement_id', 'a.amount', 'm.product_id', 'm.date', 'm.created_at'])
    .where('a.tenant_id', '=', ctx.tenantId)
    .where('a.landed_cost_id', 'in', ids)
    .orderBy('m.date')
    .orderBy('m.seq')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    date: r.date,
    method: r.method,
    status: r.status,
    amount: toNumber(r.amount),
    description: r.description,
    entryId: r.entry_id,
    charges: charges
      .filter((c) => c.landed_cost_id === r.id)
      .map((c) => ({ id: c.id, billId: c.bill_id, billLineId: c.bill_line_id, amount: toNumber(c.amount) })),
    allocations: allocations
      .filter((a) => a.landed_cost_id === r.id)
      .map((a) => ({ movementId: a.movement_id, productId: a.product_id, amount: toNumber(a.amount) })),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    deletedAt: r.deleted_at?.toISOString() ?? null,
  }));
}

export async function findLandedCost(ctx: TenantCtx, id: string, lock = false) {
  let q = ctx.db
    .selectFrom('landed_costs')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('Landed cost');
  return row;
}

export async function landedCostRecord(ctx: TenantCtx, row: Row): Promise<Rec> {
  return (await records(ctx, [row]))[0]!;
}

export async function getLandedCost(ctx: TenantCtx, id: string): Promise<Rec> {
  return landedCostRecord(ctx, await findLandedCost(ctx, id));
}

/** Each charge's bill line: the company's, on a posted bill; what is left of it to spread. */
async function checkCharges(ctx: TenantCtx, charges: Static<typeof LandedCostCreate>['charges']) {
  const companyId = companyOf(ctx);
  const asked = new Map<string, ReturnType<typeof money>>();
  for (const [i, c] of charges.entries()) {
    const field = `charges[${i}]`;
    if (!hasAtMostDecimals(c.amount, 2))
      throw badRequest(`${field}.amount`, 'must have at most two decimals');
    const line = await sql<{ net_amount: string; status: string; stock: string | null }>`
      select l.net_amount::text as net_amount, b.status,
             (select p.name from products p
               where p.tenant_id = l.tenant_id and p.id = l.product_id and p.is_tracked) as stock
        from bill_lines l
        join bills b on b.tenant_id = l.tenant_id and b.id = l.bill_id
       where l.tenant_id = ${ctx.tenantId} and l.id = ${c.billLineId} and l.bill_id = ${c.billId}
         and b.company_id = ${companyId} and b.deleted_at is null and l.retired_at is null`.execute(ctx.db);
    const found = line.rows[0];
    if (!found) throw badRequest(`${field}.billLineId`, 'no such line on that bill of this company');
    // The goods themselves are no charge on them: a stock line posted to inventory (or GRNI), not
    // to its account, so crediting that account would take from an expense never debited.
    if (found.stock)
      throw badRequest(
        `${field}.billLineId`,
        `a line of stock (${found.stock}), not a charge: a landed cost spreads a service or expense line ` +
          '(freight, duty, clearing)',
      );
    if (!['approved', 'partially_paid', 'paid'].includes(found.status))
      throw badRequest(`${field}.billId`, 'the bill is not approved: its charge is not in the books yet');
    // The bill line is locked against a second landed cost taking the same amount meanwhile.
    await sql`select pg_advisory_xact_lock(hashtext(${`landed_cost_line:${c.billLineId}`}))`.execute(ctx.db);
    const used = await sql<{ used: string | null }>`
      select sum(c.amount)::text as used from landed_cost_charges c
        join landed_costs lc on lc.tenant_id = c.tenant_id and lc.id = c.landed_cost_id
       where c.tenant_id = ${ctx.tenantId} and c.bill_line_id = ${c.billLineId} and lc.deleted_at is null`.execute(
      ctx.db,
    );
    const total = (asked.get(c.billLineId) ?? money(0)).plus(c.amount);
    asked.set(c.billLineId, total);
    const left = money(found.net_amount).minus(money(used.rows[0]?.used ?? 0));
    if (total.greaterThan(left))
      throw conflict(
        `${field}: the bill line has ${left.toFixed(2)} left to spread (of ${money(found.net_amount).toFixed(2)}); ${total.toFixed(2)} asked`,
        { code: 'BILL_LINE_USED', field: `${field}.amount` },
      );
  }
}

/** POST /api/landed-costs: a draft with each receipt's share worked out. */
export async function createLandedCost(ctx: TenantCtx, input: Static<typeof LandedCostCreate>): Promise<Rec> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'landed_costs',
    owner: ['company_id', companyId],
    softDeleted: true,
  });
  if (replay) {
    ctx.reply.code(200);
    return getLandedCost(ctx, id);
  }
  await checkCharges(ctx, input.charges);
  const receipts = [];
  for (const [i, movementId] of input.receipts.entries()) {
    const m = await sql<{ id: string; date: string; value: string; quantity: string; weight: string | null }>`
      select m.id, m.date::text as date, m.value::text as value, m.quantity::text as quantity,
             coalesce(v.weight, p.weight)::text as weight
        from stock_movements m
        join products p on p.tenant_id = m.tenant_id and p.id = m.product_id
        left join product_variants v on v.tenant_id = m.tenant_id and v.id = m.variant_id
       where m.tenant_id = ${ctx.tenantId} and m.id = ${movementId} and m.company_id = ${companyId}
         and m.type in ('purchase', 'receipt') and m.quantity > 0`.execute(ctx.db);
    const r = m.rows[0];
    if (!r)
      throw badRequest(
        `receipts[${i}]`,
        'no such receipt of stock (a purchase or receipt movement) in this company',
      );
    // Value cannot come before the goods: dated before the receipt, the cost would be in stock on
    // days the units were not (a valuation then shows value without quantity).
    if (input.date < r.date)
      throw badRequest(
        'date',
        `must not be before the receipt it is spread over (receipts[${i}], received ${r.date})`,
      );
    receipts.push({ ...r, basis: basisOf(input.method, r, `receipts[${i}]`) });
  }
  const amount = sum(input.charges.map((c) => money(c.amount)));
  const shares = largestRemainder(
    amount,
    receipts.map((r) => r.basis),
  );
  const row = await ctx.db
    .insertInto('landed_costs')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      date: input.date,
      method: input.method,
      amount: toSql(amount),
      description: input.description?.trim() || null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('landed_cost_charges')
    .values(
      input.charges.map((c) => ({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        landed_cost_id: id,
        bill_id: c.billId,
        bill_line_id: c.billLineId,
        amount: toSql(c.amount),
      })),
    )
    .execute();
  await ctx.db
    .insertInto('landed_cost_allocations')
    .values(
      receipts.map((r, i) => ({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        landed_cost_id: id,
        movement_id: r.id,
        amount: toSql(shares[i]!),
      })),
    )
    .execute();
  ctx.reply.code(201);
  return landedCostRecord(ctx, row);
}

/** DELETE …/{id}: a draft is marked deleted (its bill lines' amounts are free again). */
export async function deleteLandedCost(ctx: TenantCtx, id: string): Promise<void> {
  const row = await findLandedCost(ctx, id, true);
  if (row.status !== 'draft')
    throw conflict('The landed cost is posted: it stays on record', { code: 'LANDED_COST_POSTED' });
  await ctx.db
    .updateTable('landed_costs')
    .set({ deleted_at: new Date() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

const SORT_COLUMNS = {
  date: ['date', 'created_at'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
} as const;

export async function listLandedCosts(
  ctx: TenantCtx,
  query: Static<typeof LandedCostListQuery>,
): Promise<Page<Rec>> {
  const p = paging(query);
  const order = sortOrder<keyof typeof SORT_COLUMNS>(query.sort, '-date');
  let q = ctx.db
    .selectFrom('landed_costs')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(await records(ctx, rows), total, p);
}
