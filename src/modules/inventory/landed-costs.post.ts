// Posting a landed cost: each receipt's share goes through revalue.ts, the one way value is added
// to a receipt's units after the fact (also a bill priced otherwise than its order): the part for
// units still on hand raises their cost (the average pool, or the receipt's FIFO layer), the part
// for units gone is cost of sales (IAS 2.34). The other side is the bill lines' accounts, where
// the charge was booked when the bill was approved: one entry,
//   Dr inventory (+ Dr cost of sales)   Cr each bill line's account.
import { sql } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { ledgerCtxOf, type PostingLine, post } from '../ledger/index.ts';
import { findLandedCost, landedCostRecord } from './landed-costs.service.ts';
import { revalueReceipts } from './revalue.ts';

export async function postLandedCost(ctx: TenantCtx, id: string) {
  const row = await findLandedCost(ctx, id, true);
  if (row.status !== 'draft')
    throw conflict('The landed cost is posted already', { code: 'LANDED_COST_POSTED' });
  const companyId = row.company_id;
  const entryId = crypto.randomUUID();
  const receipts = await sql<{ movement_id: string; amount: string }>`
    select a.movement_id, a.amount::text as amount
      from landed_cost_allocations a
      join stock_movements m on m.tenant_id = a.tenant_id and m.id = a.movement_id
     where a.tenant_id = ${ctx.tenantId} and a.landed_cost_id = ${id}
     order by m.date, m.seq, m.id`.execute(ctx.db);
  const lines: PostingLine[] = await revalueReceipts(ctx, {
    companyId,
    date: row.date,
    entryId,
    type: 'landed_cost',
    source: { type: 'landed_cost', id },
    shares: receipts.rows.map((r) => ({ receiptMovementId: r.movement_id, amount: money(r.amount) })),
  });
  const charges = await sql<{ account_id: string; amount: string; description: string }>`
    select l.account_id, c.amount::text as amount, l.description
      from landed_cost_charges c join bill_lines l on l.tenant_id = c.tenant_id and l.id = c.bill_line_id
     where c.tenant_id = ${ctx.tenantId} and c.landed_cost_id = ${id}
     order by c.id`.execute(ctx.db);
  for (const c of charges.rows)
    lines.push({
      accountId: c.account_id,
      credit: money(c.amount),
      description: `Landed cost: ${c.description}`,
    });
  await post(ledgerCtxOf(ctx), {
    companyId,
    date: row.date,
    description: row.description ? `Landed cost: ${row.description}` : 'Landed cost',
    source: { type: 'landed_cost', id },
    entryId,
    lines,
  });
  const updated = await ctx.db
    .updateTable('landed_costs')
    .set({ status: 'posted', entry_id: entryId })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return landedCostRecord(ctx, updated);
}
