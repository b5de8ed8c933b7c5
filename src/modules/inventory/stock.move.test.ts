// moveStock proven with worked figures, through POST /api/inventory/adjustments (one entry per
// adjustment: inventory against 5200 Stock adjustments) and, for a return, moveStock itself.
// Every test ends with the inventory account equal to the pools' value.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { post, systemAccount } from '../ledger/index.ts';
import { adjust, adjustRaw, inventoryInLedger, pool, stockProduct } from './stock.factories.ts';
import { moveStock } from './stock.move.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

const poolOf = (id: string) => pool(t, a.tenantId, a.companyId, id);

/** The sum of every pool's value in the company: what the inventory account must hold. */
async function poolsTotal() {
  const r = await withTenant(t.database.db, a.tenantId, (tx) =>
    tx
      .selectFrom('stock_costs')
      .select((eb) => eb.fn.sum<string>('value').as('v'))
      .where('tenant_id', '=', a.tenantId)
      .where('company_id', '=', a.companyId)
      .executeTakeFirstOrThrow(),
  );
  return Number(r.v ?? 0).toFixed(2);
}

describe('moveStock: costing', () => {
  test('weighted average: 10 @ R10 + 10 @ R13 → 20 at R230 (R11.50); 5 out → R57.50; the last 15 → R172.50', async () => {
    const p = await stockProduct(t, api, a.tenantId);
    await adjust(api, '2026-03-01', [{ productId: p, quantity: 10, unitCost: 10 }]);
    await adjust(api, '2026-03-02', [{ productId: p, quantity: 10, unitCost: 13 }]);
    assert.deepEqual(await poolOf(p), ['20.0000', '230.00']);
    const five = await adjust(api, '2026-03-03', [{ productId: p, quantity: -5 }]);
    // 230 × 5 / 20 = 57.50
    assert.equal(five.value, -57.5);
    assert.equal(five.movements[0]!.value, -57.5);
    assert.deepEqual(await poolOf(p), ['15.0000', '172.50']);
    const rest = await adjust(api, '2026-03-04', [{ productId: p, quantity: -15 }]);
    // all that is on hand takes the whole pool: exactly 172.50, nothing stranded
    assert.equal(rest.value, -172.5);
    assert.deepEqual(await poolOf(p), ['0.0000', '0.00']);
    assert.equal(await inventoryInLedger(t, a.tenantId, a.companyId), await poolsTotal());
  });

  test('FIFO: the same buys, 12 out → 10 × R10 + 2 × R13 = R126.00; 8 left at R104.00', async () => {
    const p = await stockProduct(t, api, a.tenantId, { costMethod: 'fifo' });
    await adjust(api, '2026-03-01', [{ productId: p, quantity: 10, unitCost: 10 }]);
    await adjust(api, '2026-03-02', [{ productId: p, quantity: 10, unitCost: 13 }]);
    const out = await adjust(api, '2026-03-03', [{ productId: p, quantity: -12 }]);
    assert.equal(out.value, -126);
    assert.deepEqual(await poolOf(p), ['8.0000', '104.00']);
    // the next 3 come from the R13 layer: R39.00
    const next = await adjust(api, '2026-03-04', [{ productId: p, quantity: -3 }]);
    assert.equal(next.value, -39);
    assert.deepEqual(await poolOf(p), ['5.0000', '65.00']);
    assert.equal(await inventoryInLedger(t, a.tenantId, a.companyId), await poolsTotal());
  });

  test('rounding: 3 @ R10 (R30) + 1 @ R10.01 → 4 at R40.01; out 1 → R10.00, out 2 → R20.01, the last → R10.00', async () => {
    const p = await stockProduct(t, api, a.tenantId);
    await adjust(api, '2026-03-01', [{ productId: p, quantity: 3, unitCost: 10 }]);
    await adjust(api, '2026-03-01', [{ productId: p, quantity: 1, unitCost: 10.01 }]);
    assert.deepEqual(await poolOf(p), ['4.0000', '40.01']);
    // 40.01 / 4 = 10.0025 → 10.00
    assert.equal((await adjust(api, '2026-03-02', [{ productId: p, quantity: -1 }])).value, -10);
    // 30.01 × 2 / 3 = 20.0067 → 20.01
    assert.equal((await adjust(api, '2026-03-02', [{ productId: p, quantity: -2 }])).value, -20.01);
    // the last one takes what remains: 30.01 − 20.01 = 10.00; 10.00 + 20.01 + 10.00 = 40.01
    assert.equal((await adjust(api, '2026-03-02', [{ productId: p, quantity: -1 }])).value, -10);
    assert.deepEqual(await poolOf(p), ['0.0000', '0.00']);
  });

  test('a return comes back at the cost it left with, not the average now', async () => {
    const p = await stockProduct(t, api, a.tenantId);
    const inn = await adjust(api, '2026-03-01', [{ productId: p, quantity: 10, unitCost: 10 }]);
    const out = await adjust(api, '2026-03-02', [{ productId: p, quantity: -4 }]); // 4 × 10 = 40
    await adjust(api, '2026-03-03', [{ productId: p, quantity: 10, unitCost: 13 }]); // 6 × 10 + 130 = 190 for 16
    // 2 of the 4 come back: 40 × 2 / 4 = R20.00 (the average now would be 190 / 16 = 11.875 → R23.75)
    const moved = await withTenant(t.database.db, a.tenantId, async (tx) => {
      const ctx = { db: tx, tenantId: a.tenantId };
      const entryId = crypto.randomUUID();
      const counter = await systemAccount(ctx, a.companyId, 'cost_of_sales');
      const m = await moveStock(ctx, {
        companyId: a.companyId,
        productId: p,
        date: '2026-03-04',
        type: 'return_in',
        quantity: 2,
        reversesMovementId: out.movements[0]!.id,
        source: { type: 'test_return' },
        entryId,
        counterAccountId: counter,
      });
      await post(ctx, {
        companyId: a.companyId,
        date: '2026-03-04',
        description: 'Return',
        source: { type: 'test_return' },
        lines: m.lines,
        entryId,
      });
      return m;
    });
    assert.equal(moved.value.toFixed(2), '20.00');
    assert.deepEqual(await poolOf(p), ['18.0000', '210.00']);
    // 3 more would make 5 back of the 4 that went out: refused; and an in movement is no return
    for (const [reverses, quantity] of [
      [out.movements[0]!.id, 3],
      [inn.movements[0]!.id, 1],
    ] as const) {
      await assert.rejects(
        withTenant(t.database.db, a.tenantId, (tx) =>
          moveStock(
            { db: tx, tenantId: a.tenantId },
            {
              companyId: a.companyId,
              productId: p,
              date: '2026-03-05',
              type: 'return_in',
              quantity,
              reversesMovementId: reverses,
              source: { type: 'test_return' },
            },
          ),
        ),
        /not an out movement|more would come back/,
      );
    }
    assert.equal(await inventoryInLedger(t, a.tenantId, a.companyId), await poolsTotal());
  });
});

describe('moveStock: below zero, serials', () => {
  test('negative stock allowed: beyond on hand at the last unit cost; back above zero revalues to cost of sales', async () => {
    const p = await stockProduct(t, api, a.tenantId, { allowNegative: true });
    await adjust(api, '2026-04-01', [{ productId: p, quantity: 2, unitCost: 10 }]);
    // 2 on hand take the pool (R20), the 3 beyond at the last unit cost R10: R50; pool −3 at −R30
    const out = await adjust(api, '2026-04-02', [{ productId: p, quantity: -5 }]);
    assert.equal(out.value, -50);
    assert.deepEqual(await poolOf(p), ['-3.0000', '-30.00']);
    // 5 in @ R12 = R60: the 3 owed are made good at R12 (R36, not R30), 2 stay at R24; the R6
    // difference is revalued (inventory Cr 6, cost of sales Dr 6)
    const back = await adjust(api, '2026-04-03', [{ productId: p, quantity: 5, unitCost: 12 }]);
    assert.deepEqual(
      back.movements.map((m) => [m.type, m.value]),
      [
        ['adjustment', 60],
        ['revaluation', -6],
      ],
    );
    assert.equal(back.value, 54);
    assert.deepEqual(await poolOf(p), ['2.0000', '24.00']);
    assert.equal(await inventoryInLedger(t, a.tenantId, a.companyId), await poolsTotal());
  });

  test('FIFO back from below zero: only what ends on hand forms a layer', async () => {
    const p = await stockProduct(t, api, a.tenantId, { costMethod: 'fifo' });
    await adjust(api, '2026-04-01', [{ productId: p, quantity: 1, unitCost: 10 }]);
    await adjust(api, '2026-04-02', [{ productId: p, quantity: -3 }]); // 10 + 2 × 10 = 30
    const back = await adjust(api, '2026-04-03', [{ productId: p, quantity: 4, unitCost: 11 }]); // 44; 2 stay: 22
    assert.deepEqual(
      back.movements.map((m) => [m.type, m.value]),
      [
        ['adjustment', 44],
        ['revaluation', -2],
      ],
    );
    assert.deepEqual(await poolOf(p), ['2.0000', '22.00']);
  });

  test('negative stock refused: 409 INSUFFICIENT_STOCK, nothing moves', async () => {
    const p = await stockProduct(t, api, a.tenantId, { allowNegative: false });
    await adjust(api, '2026-04-01', [{ productId: p, quantity: 2, unitCost: 10 }]);
    const res = await adjustRaw(api, '2026-04-02', [{ productId: p, quantity: -3 }]);
    assertProblem(res, 409);
    assert.equal(res.json().code, 'INSUFFICIENT_STOCK');
    assert.deepEqual(await poolOf(p), ['2.0000', '20.00']);
    // exactly what is on hand may go
    await adjust(api, '2026-04-02', [{ productId: p, quantity: -2 }]);
    assert.deepEqual(await poolOf(p), ['0.0000', '0.00']);
  });

  test('serials: one movement per serial; never in stock twice; out only when in stock', async () => {
    const p = await stockProduct(t, api, a.tenantId, { tracking: 'serial', allowNegative: false });
    const inn = await adjust(api, '2026-04-01', [
      { productId: p, quantity: 2, unitCost: 500, serials: ['SN-1', 'SN-2'] },
    ]);
    assert.equal(inn.movements.length, 2);
    const again = await adjustRaw(api, '2026-04-02', [
      { productId: p, quantity: 1, unitCost: 500, serials: ['SN-1'] },
    ]);
    assertProblem(again, 409);
    assert.equal(again.json().code, 'SERIAL_IN_STOCK');
    const unknown = await adjustRaw(api, '2026-04-02', [{ productId: p, quantity: -1, serials: ['SN-9'] }]);
    assertProblem(unknown, 409);
    assert.equal(unknown.json().code, 'SERIAL_NOT_IN_STOCK');
    const mismatch = await adjustRaw(api, '2026-04-02', [{ productId: p, quantity: -2, serials: ['SN-1'] }]);
    assertProblem(mismatch, 400);
    await adjust(api, '2026-04-02', [{ productId: p, quantity: -1, serials: ['SN-1'] }]);
    // out and back in is fine
    await adjust(api, '2026-04-03', [{ productId: p, quantity: 1, unitCost: 500, serials: ['SN-1'] }]);
    assert.deepEqual(await poolOf(p), ['2.0000', '1000.00']);
  });
});
