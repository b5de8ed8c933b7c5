// The stock fields of a document line as stored (one jsonb, migrations/0050_inventory_lines.sql)
// and answered, and their checks when a document is saved: the unit must be the product's, a
// batch or serials only for a product tracked so, and as many serials as base units.

import type { Decimal } from 'decimal.js';
import type { ColumnType } from 'kysely';
import { badRequest } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import type { LedgerCtx } from '../ledger/index.ts';
import { toBaseUnits } from './units.service.ts';

type Ctx = Pick<LedgerCtx, 'db' | 'tenantId'>;

export interface LineStock {
  unit?: string;
  batchCode?: string;
  batchExpiry?: string;
  serials?: string[];
}

export type LineStockColumn = ColumnType<LineStock | null, string | null | undefined, string | null>;

/** The column's value for a line as sent: null when it names none of the fields. */
export function stockColumn(l: LineStock): string | null {
  const s: LineStock = {};
  if (l.unit?.trim()) s.unit = l.unit.trim();
  if (l.batchCode?.trim()) s.batchCode = l.batchCode.trim();
  if (l.batchExpiry) s.batchExpiry = l.batchExpiry;
  if (l.serials) s.serials = l.serials.map((x) => x.trim());
  return Object.keys(s).length ? JSON.stringify(s) : null;
}

/** The fields a line answers (null when not given). */
export function stockAnswer(s: LineStock | null | undefined) {
  return {
    unit: s?.unit ?? null,
    batchCode: s?.batchCode ?? null,
    batchExpiry: s?.batchExpiry ?? null,
    serials: s?.serials ?? null,
  };
}

/** The line's stock fields given to a copy (a bill from an order, a void's credit note). */
export function stockInput(s: LineStock | null | undefined): LineStock {
  const { unit, batchCode, batchExpiry, serials } = stockAnswer(s);
  return {
    ...(unit ? { unit } : {}),
    ...(batchCode ? { batchCode } : {}),
    ...(batchExpiry ? { batchExpiry } : {}),
    ...(serials ? { serials } : {}),
  };
}

/** A line's quantity in the product's base units (400 naming `field` for an unknown unit). */
export function baseQuantity(
  ctx: Ctx,
  productId: string,
  s: LineStock | null | undefined,
  quantity: string | number | Decimal,
  field: string,
): Promise<Decimal> {
  return toBaseUnits(ctx, productId, s?.unit, quantity, field);
}

/** 400 naming `${field}.serials` unless there is one distinct serial per base unit. */
export function assertSerialCount(serials: string[], base: Decimal, field: string) {
  if (!base.abs().equals(serials.length))
    throw badRequest(
      `${field}.serials`,
      `${serials.length} serial(s) for ${base.abs().toString()} base unit(s): one per unit`,
    );
  const seen = new Set<string>();
  for (const s of serials) {
    const k = s.trim();
    if (!k) throw badRequest(`${field}.serials`, 'a serial must not be blank');
    if (seen.has(k)) throw badRequest(`${field}.serials`, `serial ${k} is given twice`);
    seen.add(k);
  }
}

interface CheckedLine extends LineStock {
  productId?: string | null | undefined;
  quantity: number;
}

/**
 * The checks a document's lines pass when saved (`${field}[i].unit` etc. named on a 400): stock
 * fields go with a product; the unit is one of the product's; a batch only for a batch-tracked
 * product; serials only for a serial-tracked one, one per base unit. What needs the stock itself
 * (is the batch there, is the serial in stock) is checked when the document moves it.
 */
export async function assertLineStock(ctx: Ctx, lines: CheckedLine[], field: string): Promise<void> {
  for (const [i, l] of lines.entries()) {
    const at = `${field}[${i}]`;
    const given = (['unit', 'batchCode', 'batchExpiry', 'serials'] as const).find((k) => l[k] != null);
    if (!given) continue;
    if (!l.productId) throw badRequest(`${at}.${given}`, 'goes with a productId');
    const p = await ctx.db
      .selectFrom('products')
      .select(['tracking'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', l.productId)
      .executeTakeFirst();
    if (!p) continue; // assertLiveProducts names it
    const base = await baseQuantity(ctx, l.productId, l, money(l.quantity), `${at}.unit`);
    if (l.batchCode != null && p.tracking !== 'batch')
      throw badRequest(`${at}.batchCode`, 'the product is not batch-tracked');
    if (l.batchExpiry != null && l.batchCode == null)
      throw badRequest(`${at}.batchExpiry`, 'goes with a batchCode');
    if (l.serials != null) {
      if (p.tracking !== 'serial') throw badRequest(`${at}.serials`, 'the product is not serial-tracked');
      assertSerialCount(l.serials, base, at);
    }
  }
}
