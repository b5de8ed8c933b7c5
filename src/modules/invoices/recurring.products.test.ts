// A recurring template's product lines (migration 0058): the product, variant, unit and batch the
// template names are kept and given to each document it makes, so a released document moves
// stock as a typed invoice does; serials on a template are refused (a serial is sold once).
//
// The figures: a tracked product (average cost) adjusted in with 10 at R40.00 (R400.00 on
// hand); a weekly schedule selling 2 a week from Monday 23 February 2026, released: after two
// documents 10 − 2 − 2 = 6 remain, worth 6 × R40.00 = R240.00.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestClock } from 'pg-boss';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type MovedClock, movedClock } from '../../../test/support/moved-clock.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { adjust, pool, stockProduct } from '../inventory/stock.factories.ts';
import { salesSetup } from './invoices.factories.ts';
import { RECURRING_QUEUE } from './recurring.run.ts';

let t: TestApp;
let clock: TestClock;
let moved: MovedClock;
let b: Registered;
let api: ReturnType<typeof as>;
let customerId: string;
before(async () => {
  clock = new TestClock(new Date('2026-02-20T08:00:00Z'));
  t = await startTestApp({ jobsClock: clock });
  t.clock.set('2026-02-20T08:00:00Z');
  moved = movedClock(t, clock, [RECURRING_QUEUE]);
  b = await register(t.app, { plan: 'professional' });
  api = as(t.app, b.token, b.companyId);
  ({ customerId } = await salesSetup(t, b));
});
after(() => t.close());

describe('recurring invoices of a product', () => {
  test('the template keeps the product; each released document moves its stock', async () => {
    const productId = await stockProduct(t, api, b.tenantId);
    await adjust(api, '2026-02-20', [{ productId, quantity: 10, unitCost: 40 }]);
    const res = await api({
      method: 'POST',
      url: '/api/recurring',
      payload: {
        contactId: customerId,
        frequency: 'weekly',
        startDate: '2026-02-23',
        autoRelease: true,
        lines: [{ description: 'Widgets', quantity: 2, unitPrice: 100, productId }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.deepEqual(
      [r.lines[0].productId, r.lines[0].variantId, r.lines[0].unit, r.lines[0].batchCode],
      [productId, null, null, null],
    );
    for (const day of ['2026-02-23T06:00:00Z', '2026-03-02T06:00:00Z']) {
      await moved.jumpTo(day);
      await moved.settled();
    }
    const made = (await api({ method: 'GET', url: `/api/recurring/${r.id}/invoices` })).json().items;
    assert.equal(made.length, 2);
    for (const d of made) assert.equal(d.lines[0].productId, productId);
    // 10 − 2 − 2 = 6 on hand, at R40.00 each = R240.00.
    assert.deepEqual(await pool(t, b.tenantId, b.companyId, productId), ['6.0000', '240.00']);
  });

  test('serials on a template: 400 naming lines[0].serials', async () => {
    const productId = await stockProduct(t, api, b.tenantId, { tracking: 'serial' });
    const res = await api({
      method: 'POST',
      url: '/api/recurring',
      payload: {
        contactId: customerId,
        frequency: 'monthly',
        startDate: '2026-05-01',
        lines: [{ description: 'Router', quantity: 1, unitPrice: 900, productId, serials: ['SN-1'] }],
      },
    });
    assertProblem(res, 400);
    const body = res.json();
    assert.equal(body.errors?.[0]?.field ?? body.field, 'lines[0].serials');
  });
});
