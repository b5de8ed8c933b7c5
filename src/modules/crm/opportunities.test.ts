// Opportunities through the API: lines priced by hand (product or free text, discount), the
// amount and weighted amount, the paged list and its filters, PATCH (lines replaced whole, closed
// ones refuse a stage move), won/lost/reopen from the right states, soft delete, another tenant's
// id answering 404, and the plan (a free plan has no CRM).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-05-04T09:00:00Z');
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token);
});
after(() => t.close());

async function create(payload: object) {
  const res = await api({ method: 'POST', url: '/api/crm/opportunities', payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function stages() {
  const res = await api({ method: 'GET', url: '/api/crm/stages' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { id: string; name: string; probability: number }[];
}

describe('opportunities', () => {
  test('lines priced by hand: a product at its own price and name, free text with a discount', async () => {
    const p = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'DSK-1', name: 'Standing desk', unitPrice: 4999.99 },
    });
    assert.equal(p.statusCode, 201, p.body);
    const o = await create({
      name: 'Office fit-out',
      lines: [
        { productId: p.json().id, quantity: 3 },
        { description: 'Installation', quantity: 2.5, unitPrice: 333.33, discountPercent: 12.5 },
      ],
    });
    // Line 1: 3 × 4,999.99 = 14,999.97. Line 2: 2.5 × 333.33 = 833.325, less 12.5% = 729.159375 →
    // 729.16 (half-up). Amount 14,999.97 + 729.16 = 15,729.13. First stage (Qualification, 10%):
    // weighted 1,572.913 → 1,572.91.
    assert.deepEqual(
      o.lines.map((l: Record<string, unknown>) => [
        l.description,
        l.quantity,
        l.unitPrice,
        l.discountPercent,
        l.amount,
      ]),
      [
        ['Standing desk', 3, 4999.99, 0, 14999.97],
        ['Installation', 2.5, 333.33, 12.5, 729.16],
      ],
    );
    assert.equal(o.amount, 15729.13);
    assert.deepEqual(o.stage, { id: (await stages())[0]!.id, name: 'Qualification', probability: 10 });
    assert.equal(o.weightedAmount, 1572.91);
    assert.equal(o.status, 'open');
    assert.equal(o.ownerId, a.userId, 'the caller owns it by default');
    assert.equal(o.currency, 'ZAR');
    const got = await api({ method: 'GET', url: `/api/crm/opportunities/${o.id}` });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), o);
  });

  test('without lines the amount is the one given; bad references are 400s naming the field', async () => {
    const o = await create({ name: 'Retainer', amount: 12000 });
    assert.deepEqual([o.amount, o.weightedAmount, o.lines], [12000, 1200, []]);
    const bad = (payload: object) => api({ method: 'POST', url: '/api/crm/opportunities', payload });
    const cases: [object, string][] = [
      [{ name: 'x', contactId: crypto.randomUUID() }, 'contactId'],
      [{ name: 'x', stageId: crypto.randomUUID() }, 'stageId'],
      [{ name: 'x', ownerId: crypto.randomUUID() }, 'ownerId'],
      [{ name: 'x', lines: [{ productId: crypto.randomUUID(), quantity: 1 }] }, 'lines[0].productId'],
      [{ name: 'x', lines: [{ quantity: 1, unitPrice: 5 }] }, 'lines[0].description'],
      [{ name: 'x', lines: [{ description: 'y', quantity: 1 }] }, 'lines[0].unitPrice'],
      [{ name: 'x', lines: [{ description: 'y', quantity: 1, unitPrice: 1.005 }] }, 'lines[0].unitPrice'],
      [{ name: 'x', amount: 10, lines: [{ description: 'y', quantity: 1, unitPrice: 5 }] }, 'amount'],
      [{ name: '   ' }, 'name'],
      // 1,000,000,000 × 999,999,999,999.99 is past what a quote's totals hold, discounted or not.
      [
        {
          name: 'x',
          lines: [{ description: 'y', quantity: 1e9, unitPrice: 999999999999.99, discountPercent: 100 }],
        },
        'lines[0].quantity',
      ],
    ];
    for (const [payload, field] of cases) assert.equal(assertProblem(await bad(payload), 400).field, field);
  });

  test('PATCH: stage moves the weighting; lines replaced whole; the list filters', async () => {
    const [, , proposal] = await stages();
    const o = await create({
      name: 'Fleet tracking',
      lines: [{ description: 'Units', quantity: 10, unitPrice: 800 }],
    });
    const res = await api({
      method: 'PATCH',
      url: `/api/crm/opportunities/${o.id}`,
      payload: { stageId: proposal!.id, lines: [{ description: 'Units', quantity: 4, unitPrice: 800 }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    // 4 × 800 = 3,200; at Proposal (50%) weighted 1,600.
    assert.deepEqual(
      [res.json().amount, res.json().weightedAmount, res.json().lines.length],
      [3200, 1600, 1],
    );
    assert.equal(res.json().stage.name, 'Proposal');
    const list = await api({ method: 'GET', url: `/api/crm/opportunities?stageId=${proposal!.id}` });
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(
      list.json().items.map((i: { id: string }) => i.id),
      [o.id],
    );
    assert.equal(list.json().total, 1);
    const mine = await api({
      method: 'GET',
      url: `/api/crm/opportunities?ownerId=${a.userId}&status=open&limit=1`,
    });
    assert.equal(mine.json().items.length, 1);
    assert.ok(mine.json().total >= 3);
  });

  test('won and lost from open only; lost needs a reason; reopen; closed ones keep their stage', async () => {
    const o = await create({ name: 'Solar install', amount: 50000 });
    const url = `/api/crm/opportunities/${o.id}`;
    assert.equal(
      assertProblem(await api({ method: 'POST', url: `${url}/lost`, payload: {} }), 400).field,
      'reason',
    );
    const won = await api({ method: 'POST', url: `${url}/won`, payload: { reason: 'Best finance terms' } });
    assert.equal(won.statusCode, 200, won.body);
    assert.deepEqual(
      [won.json().status, won.json().closeReason, won.json().closedAt],
      ['won', 'Best finance terms', '2026-05-04T09:00:00.000Z'],
    );
    assert.equal(won.json().weightedAmount, 50000, 'won: the whole amount');
    assertProblem(await api({ method: 'POST', url: `${url}/lost`, payload: { reason: 'x' } }), 409);
    assertProblem(await api({ method: 'POST', url: `${url}/won` }), 409);
    assertProblem(await api({ method: 'PATCH', url, payload: { amount: 1 } }), 409);
    const renamed = await api({ method: 'PATCH', url, payload: { name: 'Solar install (phase 1)' } });
    assert.equal(renamed.statusCode, 200, 'a closed one may still be renamed');
    const reopened = await api({ method: 'POST', url: `${url}/reopen` });
    assert.equal(reopened.statusCode, 200, reopened.body);
    assert.deepEqual([reopened.json().status, reopened.json().closedAt], ['open', null]);
    assertProblem(await api({ method: 'POST', url: `${url}/reopen` }), 409);
    const lost = await api({
      method: 'POST',
      url: `${url}/lost`,
      payload: { reason: 'Went with a competitor' },
    });
    assert.deepEqual([lost.json().status, lost.json().weightedAmount], ['lost', 0]);
  });

  test("delete is soft: 404 after, seen by a sync; another tenant's id is a 404", async () => {
    const o = await create({ name: 'Short-lived', amount: 10 });
    const del = await api({ method: 'DELETE', url: `/api/crm/opportunities/${o.id}` });
    assert.equal(del.statusCode, 204);
    assertProblem(await api({ method: 'GET', url: `/api/crm/opportunities/${o.id}` }), 404);
    const sync = await api({
      method: 'GET',
      url: '/api/crm/opportunities?updatedSince=2026-01-01T00:00:00Z&limit=200',
    });
    const seen = sync.json().items.find((i: { id: string }) => i.id === o.id);
    assert.ok(seen?.deletedAt, 'a sync sees it deleted');
    const b = await register(t.app, { plan: 'starter' });
    const other = await create({ name: 'Mine', amount: 1 });
    assertProblem(
      await as(t.app, b.token)({ method: 'GET', url: `/api/crm/opportunities/${other.id}` }),
      404,
    );
  });

  test('a free plan has no CRM: 403 MODULE_NOT_LICENSED', async () => {
    const f = await register(t.app, { plan: 'free' });
    const fApi = as(t.app, f.token);
    for (const url of ['/api/crm/opportunities', '/api/crm/stages', '/api/crm/pipeline']) {
      assert.equal(assertProblem(await fApi({ method: 'GET', url }), 403).code, 'MODULE_NOT_LICENSED', url);
    }
  });
});
