// Stock adjustments and opening stock: each line moves stock through moveStock, and the whole
// adjustment posts ONE journal entry, inventory against 5200 Stock adjustments (or, for opening
// stock, 3400 Opening balances). The adjustment has no table of its own: it is its entry (the
// adjustment's id is the entry's id) and the movements naming it as their source.

import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money, sum, toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { ledgerCtxOf, type PostingLine, post, systemAccount } from '../ledger/index.ts';
import { movementOut } from './movements.service.ts';
import { assertLocation, batchOf, defaultLocation, serialOf, stockItem } from './stock.items.ts';
import { moveStock } from './stock.move.ts';

export const ADJUSTMENT_SOURCE = 'stock_adjustment';

export interface AdjustmentInput {
  /** Becomes the adjustment's (its entry's) id: sent again, 200 with the adjustment made. */
  clientId?: string;
  date: string;
  type?: 'adjustment' | 'opening';
  locationId?: string | null;
  reason: string;
  lines: Array<{
    productId: string;
    variantId?: string | null;
    quantity: number;
    unitCost?: number | null;
    batchCode?: string | null;
    batchExpiry?: string | null;
    serials?: string[];
  }>;
}

export async function createAdjustment(ctx: TenantCtx, input: AdjustmentInput) {
  const companyId = companyOf(ctx);
  const type = input.type ?? 'adjustment';
  const reason = input.reason.trim();
  if (!reason) throw badRequest('reason', 'must not be blank');
  const locationId = input.locationId
    ? (await assertLocation(ctx, companyId, input.locationId)).id
    : await defaultLocation(ctx, companyId);
  const lctx = ledgerCtxOf(ctx);
  const counter = await systemAccount(
    lctx,
    companyId,
    type === 'opening' ? 'opening_balances' : 'stock_adjustments',
  );
  // A replay answers what the first request made (200); an id taken by another entry is a 409.
  // (Without the wait for a racing first submission both would move the stock and the second
  // entry's primary key would answer a bare 409.)
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'journal_entries',
    owner: ['company_id', companyId],
    kind: ['source_type', ADJUSTMENT_SOURCE],
  });
  if (replay) {
    ctx.reply.code(200);
    return getAdjustment(ctx, id);
  }
  ctx.reply.code(201);
  const lines: PostingLine[] = [];
  for (const [i, l] of input.lines.entries()) {
    const f = (name: string) => `lines[${i}].${name}`;
    const q = money(l.quantity);
    if (q.isZero()) throw badRequest(f('quantity'), 'must not be zero');
    if (!hasAtMostDecimals(q, 4)) throw badRequest(f('quantity'), 'must have at most four decimals');
    if (l.unitCost != null && q.isNegative())
      throw badRequest(
        f('unitCost'),
        'only stock coming in takes a unit cost: out goes at the cost method’s value',
      );
    if (l.unitCost != null && !hasAtMostDecimals(l.unitCost, 4))
      throw badRequest(f('unitCost'), 'must have at most four decimals');
    const item = await stockItem(ctx, l.productId, l.variantId, f('productId'));
    if (item.tracking !== 'batch' && l.batchCode)
      throw badRequest(f('batchCode'), `${item.name} takes no batch`);
    if (item.tracking === 'batch' && !l.batchCode)
      throw badRequest(f('batchCode'), `${item.name} needs a batch`);
    const serials = (l.serials ?? []).map((s) => s.trim());
    if (item.tracking !== 'serial' && serials.length)
      throw badRequest(f('serials'), `${item.name} takes no serials`);
    if (item.tracking === 'serial') {
      if (!q.isInteger() || serials.length !== q.abs().toNumber())
        throw badRequest(
          f('serials'),
          `one serial per unit: ${q.abs().toString()} units, ${serials.length} serials`,
        );
      if (new Set(serials).size !== serials.length || serials.some((s) => !s))
        throw badRequest(f('serials'), 'each serial once, none blank');
    }
    const batchId = l.batchCode ? (await batchOf(ctx, item, l.batchCode, l.batchExpiry)).id : null;
    const base = {
      companyId,
      locationId,
      productId: l.productId,
      variantId: l.variantId ?? null,
      batchId,
      date: input.date,
      type,
      unitCost: l.unitCost ?? null,
      source: { type: ADJUSTMENT_SOURCE, id, lineId: null },
      entryId: id,
      counterAccountId: counter,
      field: f('quantity'),
      item,
    } as const;
    const moves =
      item.tracking === 'serial'
        ? await Promise.all(serials.map((s) => serialOf(ctx, item, s))).then((ids) =>
            ids.map((serialId) => ({ ...base, serialId, quantity: q.isNegative() ? -1 : 1 })),
          )
        : [{ ...base, quantity: q }];
    for (const m of moves) {
      const moved = await moveStock(ctx, m);
      lines.push(...moved.lines);
    }
  }
  if (lines.length === 0)
    throw badRequest(
      'lines',
      'the adjustment moves no value: give a unitCost for stock that has no cost yet',
    );
  await post(lctx, {
    companyId,
    date: input.date,
    description: `${type === 'opening' ? 'Opening stock' : 'Stock adjustment'}: ${reason}`,
    source: { type: ADJUSTMENT_SOURCE, id },
    lines,
    entryId: id,
  });
  return getAdjustment(ctx, id);
}

export async function getAdjustment(ctx: TenantCtx, id: string) {
  const entry = await ctx.db
    .selectFrom('journal_entries')
    .select(['id', 'company_id', 'date', 'description'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .where('source_type', '=', ADJUSTMENT_SOURCE)
    .executeTakeFirst();
  if (!entry) throw notFound('Stock adjustment');
  const rows = await ctx.db
    .selectFrom('stock_movements')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('source_type', '=', ADJUSTMENT_SOURCE)
    .where('source_id', '=', id)
    .orderBy('seq')
    .orderBy('id')
    .execute();
  const opening = rows.some((r) => r.type === 'opening');
  const description = entry.description;
  return {
    id,
    companyId: entry.company_id,
    type: opening ? ('opening' as const) : ('adjustment' as const),
    date: typeof entry.date === 'string' ? entry.date : String(entry.date),
    reason: description.replace(/^(Opening stock|Stock adjustment): /, ''),
    entryId: id,
    value: toNumber(sum(rows.map((r) => money(r.value)))),
    movements: rows.map(movementOut),
  };
}
