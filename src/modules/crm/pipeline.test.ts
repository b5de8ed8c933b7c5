// The pipeline report with worked figures: open opportunities by stage (value, weighted value,
// each weighted amount rounded half-up to cents), totals, and conversion over a period of
// creation (leads converted / created; won / (won + lost)).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'starter' });
  api = as(t.app, a.token);
});
after(() => t.close());

async function deal(stageId: string, payload: object) {
  const res = await api({ method: 'POST', url: '/api/crm/opportunities', payload: { stageId, ...payload } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as string;
}

/** Leads straight into the table (the leads routes are another file's): created then, converted or not. */
async function lead(created: string, converted: boolean) {
  await withTenant(t.database.db, a.tenantId, (tx) =>
    tx
      .insertInto('crm_leads')
      .values({
        tenant_id: a.tenantId,
        id: crypto.randomUUID(),
        name: `Lead ${created}`,
        status: converted ? 'converted' : 'new',
        converted_at: converted ? new Date(created) : null,
        created_at: new Date(created),
        updated_at: new Date(created),
      })
      .execute(),
  );
}

describe('pipeline report', () => {
  test('weighted by stage, with totals and conversion rates (worked by hand)', async () => {
    const stages = (await api({ method: 'GET', url: '/api/crm/stages' })).json() as { id: string }[];
    const [qual, needs, proposal, negotiation] = stages.map((s) => s.id) as [string, string, string, string];
    t.clock.set('2026-02-10T08:00:00Z');
    const h = await deal(needs, { name: 'H, February', amount: 800 });
    await api({ method: 'POST', url: `/api/crm/opportunities/${h}/won`, payload: {} });
    t.clock.set('2026-03-15T08:00:00Z');
    await deal(qual, { name: 'A', amount: 1000.05 });
    await deal(qual, { name: 'B', amount: 2000 });
    await deal(proposal, { name: 'C', lines: [{ description: 'Hours', quantity: 3, unitPrice: 333.33 }] });
    await deal(negotiation, { name: 'D', amount: 10000 });
    const e = await deal(needs, { name: 'E', amount: 7000 });
    await api({ method: 'POST', url: `/api/crm/opportunities/${e}/won`, payload: {} });
    const f = await deal(proposal, { name: 'F', amount: 3000 });
    await api({ method: 'POST', url: `/api/crm/opportunities/${f}/lost`, payload: { reason: 'Price' } });
    const g = await deal(proposal, { name: 'G', amount: 5000 });
    await api({ method: 'DELETE', url: `/api/crm/opportunities/${g}` });
    for (const [day, converted] of [
      ['2026-02-20T10:00:00Z', true],
      ['2026-03-02T10:00:00Z', true],
      ['2026-03-03T10:00:00Z', false],
      ['2026-03-20T10:00:00Z', false],
      ['2026-03-31T23:59:59Z', false],
    ] as const)
      await lead(day, converted);

    const res = await api({ method: 'GET', url: '/api/crm/pipeline?from=2026-03-01&to=2026-03-31' });
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json();
    // Open only (E won, F lost, G deleted, H won are out):
    //   Qualification 10%: A 1,000.05 → 100.005 → 100.01; B 2,000.00 → 200.00. Count 2, value
    //     3,000.05, weighted 300.01.
    //   Needs analysis 25%: nothing open.
    //   Proposal 50%: C 3 × 333.33 = 999.99 → 499.995 → 500.00.
    //   Negotiation 75%: D 10,000.00 → 7,500.00.
    // Totals: 4 open, value 14,000.04, weighted 300.01 + 500.00 + 7,500.00 = 8,300.01.
    assert.deepEqual(
      r.stages.map((s: Record<string, unknown>) => [
        s.name,
        s.probability,
        s.count,
        s.value,
        s.weightedValue,
      ]),
      [
        ['Qualification', 10, 2, 3000.05, 300.01],
        ['Needs analysis', 25, 0, 0, 0],
        ['Proposal', 50, 1, 999.99, 500],
        ['Negotiation', 75, 1, 10000, 7500],
      ],
    );
    assert.deepEqual(r.totals, { count: 4, value: 14000.04, weightedValue: 8300.01 });
    // March: opportunities created A–F (G deleted, H in February): 6; won E, lost F → 1 / 2 = 50%.
    // Leads created in March: 4, one converted → 25%.
    assert.deepEqual(r.conversion, {
      from: '2026-03-01',
      to: '2026-03-31',
      leadsCreated: 4,
      leadsConverted: 1,
      leadConversionRate: 25,
      opportunitiesCreated: 6,
      won: 1,
      lost: 1,
      winRate: 50,
    });
    // All time: 7 opportunities, won E and H, lost F → 2 / 3 = 66.67%; leads 2 / 5 = 40%.
    const all = (await api({ method: 'GET', url: '/api/crm/pipeline' })).json().conversion;
    assert.deepEqual(
      [all.opportunitiesCreated, all.won, all.lost, all.winRate, all.leadsCreated, all.leadConversionRate],
      [7, 2, 1, 66.67, 5, 40],
    );
    // A period with nothing closed: the rates are null, not a division by zero.
    const empty = (
      await api({ method: 'GET', url: '/api/crm/pipeline?from=2025-01-01&to=2025-01-31' })
    ).json();
    assert.deepEqual([empty.conversion.winRate, empty.conversion.leadConversionRate], [null, null]);
    assert.equal(
      assertProblem(await api({ method: 'GET', url: '/api/crm/pipeline?from=2026-03-02&to=2026-03-01' }), 400)
        .field,
      'to',
    );
  });
});
