// The valuation at several dates, worked by hand, equal to the inventory account each time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { adjust, inventoryInLedger, stockProduct } from './stock.factories.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

interface ValuationBody {
  asOf: string;
  lines: Array<{ productId: string; quantity: number; value: number }>;
  totals: { quantity: number; value: number };
  ledgerBalance: number;
  difference: number | null;
}

async function valuationAt(asOf: string, extra = ''): Promise<ValuationBody> {
  const res = await api({ method: 'GET', url: `/api/inventory/valuation?asOf=${asOf}${extra}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

describe('valuation', () => {
  test('at several dates: per product, totals, and the inventory account, to the cent', async () => {
    const A = await stockProduct(t, api, a.tenantId); // average
    const B = await stockProduct(t, api, a.tenantId, { costMethod: 'fifo' });
    // 15 Jan: opening A 10 @ 10 = 100; B 5 @ 20 = 100
    await adjust(
      api,
      '2026-01-15',
      [
        { productId: A, quantity: 10, unitCost: 10 },
        { productId: B, quantity: 5, unitCost: 20 },
      ],
      { type: 'opening' },
    );
    // 10 Feb: A −4 at 10 = −40 (6, 60); B +5 @ 22 = 110 (10, 210)
    await adjust(api, '2026-02-10', [
      { productId: A, quantity: -4 },
      { productId: B, quantity: 5, unitCost: 22 },
    ]);
    // 20 Feb: B −7 FIFO = 5 × 20 + 2 × 22 = −144 (3, 66)
    await adjust(api, '2026-02-20', [{ productId: B, quantity: -7 }]);
    // 5 Mar: A +4 @ 12.50 = 50 (10, 110)
    await adjust(api, '2026-03-05', [{ productId: A, quantity: 4, unitCost: 12.5 }]);
    const expected: Array<[string, Array<[string, number, number]>, number]> = [
      ['2025-12-31', [], 0],
      [
        '2026-01-31',
        [
          [A, 10, 100],
          [B, 5, 100],
        ],
        200,
      ],
      [
        '2026-02-15',
        [
          [A, 6, 60],
          [B, 10, 210],
        ],
        270,
      ],
      [
        '2026-02-28',
        [
          [A, 6, 60],
          [B, 3, 66],
        ],
        126,
      ],
      [
        '2026-03-04',
        [
          [A, 6, 60],
          [B, 3, 66],
        ],
        126,
      ],
      [
        '2026-03-31',
        [
          [A, 10, 110],
          [B, 3, 66],
        ],
        176,
      ],
    ];
    for (const [asOf, lines, total] of expected) {
      const v = await valuationAt(asOf);
      const got = v.lines.map((l) => [l.productId, l.quantity, l.value]);
      const want = [...lines].sort(
        (x, y) => got.findIndex((g) => g[0] === x[0]) - got.findIndex((g) => g[0] === y[0]),
      );
      assert.deepEqual(got, want, asOf);
      assert.equal(v.totals.value, total, asOf);
      assert.equal(v.ledgerBalance, total, asOf);
      assert.equal(v.difference, 0, asOf);
      assert.equal(await inventoryInLedger(t, a.tenantId, a.companyId, asOf), total.toFixed(2), asOf);
    }
    const at = (await valuationAt('2026-03-31')).lines;
    assert.equal(at.length, 2);
    const loc = await api({ method: 'GET', url: `/api/inventory/movements?productId=${A}&limit=1` });
    const locationId = loc.json().items[0].locationId as string;
    const narrowed = await valuationAt('2026-03-31', `&locationId=${locationId}`);
    assert.equal(narrowed.totals.value, 176);
    assert.equal(narrowed.difference, null);
    assertProblem(await api({ method: 'GET', url: '/api/inventory/valuation?asOf=2026-02-30' }), 400);
  });
});
