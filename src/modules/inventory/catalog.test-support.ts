// Test support for the catalogue's tests: stock on hand without a stock route (those are other
// files' work): a movement row written directly, with no value and no journal entry (as a
// transfer's), which the statement trigger adds to stock_balances.

import type { TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { defaultLocation } from './stock.items.ts';

export async function stockIn(
  t: TestApp,
  tenantId: string,
  companyId: string,
  productId: string,
  quantity: number,
  opts: { locationId?: string; variantId?: string } = {},
): Promise<void> {
  await withTenant(t.database.db, tenantId, async (tx) => {
    const locationId = opts.locationId ?? (await defaultLocation({ db: tx, tenantId }, companyId));
    await tx
      .insertInto('stock_movements')
      .values({
        tenant_id: tenantId,
        id: crypto.randomUUID(),
        company_id: companyId,
        location_id: locationId,
        product_id: productId,
        variant_id: opts.variantId ?? null,
        item_id: opts.variantId ?? productId,
        date: '2026-06-01',
        type: 'opening',
        quantity: quantity.toFixed(4),
        unit_cost: '0',
        value: '0',
        source_type: 'test',
        batch_id: null,
        serial_id: null,
        source_id: null,
        source_line_id: null,
        entry_id: null,
        reverses_movement_id: null,
      })
      .execute();
  });
}
