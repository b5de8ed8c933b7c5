// Teams and targets: progress read from won opportunities (closedAt within the period, both ends
// included) of a user or a team's members, worked by hand; a team's change moving its target;
// the refusals (both userId and teamId, a period backwards, a fractional count, users not of the
// tenant, deleting a team a target measures).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let lindiwe: string;
let pieter: string;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'starter' });
  api = as(t.app, a.token);
  lindiwe = await user('Lindiwe');
  pieter = await user('Pieter');
});
after(() => t.close());

/** A salesperson of tenant A, written straight to the table (the users API is not the subject). */
async function user(name: string): Promise<string> {
  const id = crypto.randomUUID();
  await withTenant(t.database.db, a.tenantId, (tx) =>
    tx
      .insertInto('users')
      .values({
        tenant_id: a.tenantId,
        id,
        email: `${name.toLowerCase()}.${id.slice(0, 6)}@example.co.za`,
        name,
        role: 'sales',
      })
      .execute(),
  );
  return id;
}

async function post(url: string, payload: object) {
  const res = await api({ method: 'POST', url, payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** An opportunity of `ownerId`, closed at `at` (won or lost), or left open. */
async function deal(ownerId: string, body: object, close?: { at: string; as: 'won' | 'lost' }) {
  const o = await post('/api/crm/opportunities', { name: 'Deal', ownerId, ...body });
  if (close) {
    t.clock.set(close.at);
    const res = await api({
      method: 'POST',
      url: `/api/crm/opportunities/${o.id}/${close.as}`,
      payload: close.as === 'lost' ? { reason: 'Price' } : {},
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  return o.id as string;
}

const Q2 = { periodStart: '2026-04-01', periodEnd: '2026-06-30' };

describe('teams and targets', () => {
  test('progress of a user, a team and a count, worked by hand', async () => {
    await deal(lindiwe, { amount: 10000 }, { at: '2026-04-10T09:00:00Z', as: 'won' });
    // 3 × 2,500.00 less 5% = 7,125.00, won in the last minute of the period.
    await deal(
      lindiwe,
      { lines: [{ description: 'Licences', quantity: 3, unitPrice: 2500, discountPercent: 5 }] },
      { at: '2026-06-30T23:59:00Z', as: 'won' },
    );
    await deal(pieter, { amount: 4000 }, { at: '2026-07-01T00:00:00Z', as: 'won' }); // after the period
    await deal(pieter, { amount: 6000 }, { at: '2026-05-15T09:00:00Z', as: 'won' });
    await deal(lindiwe, { amount: 3000 }, { at: '2026-05-01T09:00:00Z', as: 'lost' }); // lost: not counted
    await deal(lindiwe, { amount: 1000 }); // open: not counted
    const gone = await deal(pieter, { amount: 2000 }, { at: '2026-05-20T09:00:00Z', as: 'won' });
    assert.equal((await api({ method: 'DELETE', url: `/api/crm/opportunities/${gone}` })).statusCode, 204);

    const team = await post('/api/crm/teams', {
      name: 'Inside sales',
      memberIds: [lindiwe, pieter, lindiwe],
    });
    assert.deepEqual(team.memberIds, [lindiwe, pieter], 'repeats kept once');

    // Lindiwe: 10,000.00 + 7,125.00 = 17,125.00 of 50,000.00 = 34.25%.
    const mine = await post('/api/crm/targets', { userId: lindiwe, ...Q2, metric: 'value', target: 50000 });
    assert.deepEqual(mine.progress, { achieved: 17125, percent: 34.25, wonCount: 2, wonValue: 17125 });
    // The team: 17,125.00 + Pieter's 6,000.00 = 23,125.00 of 40,000.00 = 57.8125% → 57.81%.
    const ours = await post('/api/crm/targets', { teamId: team.id, ...Q2, metric: 'value', target: 40000 });
    assert.deepEqual(ours.progress, { achieved: 23125, percent: 57.81, wonCount: 3, wonValue: 23125 });
    // Pieter, by count: 1 won in the period of 3 = 33.333…% → 33.33%.
    const count = await post('/api/crm/targets', { userId: pieter, ...Q2, metric: 'count', target: 3 });
    assert.deepEqual(count.progress, { achieved: 1, percent: 33.33, wonCount: 1, wonValue: 6000 });

    // Pieter leaves the team: its target counts Lindiwe alone, 17,125.00 / 40,000.00 = 42.8125% → 42.81%.
    const patched = await api({
      method: 'PATCH',
      url: `/api/crm/teams/${team.id}`,
      payload: { memberIds: [lindiwe] },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const again = await api({ method: 'GET', url: `/api/crm/targets/${ours.id}` });
    assert.equal(again.statusCode, 200);
    assert.deepEqual([again.json().progress.achieved, again.json().progress.percent], [17125, 42.81]);

    // The period widened to July takes Pieter's 4,000.00 in: 2 of 3 = 66.67%.
    const wider = await api({
      method: 'PATCH',
      url: `/api/crm/targets/${count.id}`,
      payload: { periodEnd: '2026-07-31' },
    });
    assert.deepEqual([wider.json().progress.achieved, wider.json().progress.percent], [2, 66.67]);

    const list = await api({ method: 'GET', url: `/api/crm/targets?userId=${lindiwe}&activeOn=2026-05-01` });
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(
      list.json().items.map((i: { id: string }) => i.id),
      [mine.id],
    );

    // A team a live target measures stays; deleting the target first lets it go.
    assertProblem(await api({ method: 'DELETE', url: `/api/crm/teams/${team.id}` }), 409);
    assert.equal((await api({ method: 'DELETE', url: `/api/crm/targets/${ours.id}` })).statusCode, 204);
    assert.equal((await api({ method: 'DELETE', url: `/api/crm/teams/${team.id}` })).statusCode, 204);
    assertProblem(await api({ method: 'GET', url: `/api/crm/targets/${ours.id}` }), 404);
  });

  test('neither userId nor teamId: the caller; refusals name the field', async () => {
    const own = await post('/api/crm/targets', { ...Q2, metric: 'count', target: 5 });
    assert.deepEqual([own.userId, own.teamId], [a.userId, null]);
    const bad = async (payload: object, field: string) =>
      assert.equal(
        assertProblem(await api({ method: 'POST', url: '/api/crm/targets', payload }), 400).field,
        field,
      );
    await bad({ userId: lindiwe, teamId: crypto.randomUUID(), ...Q2, metric: 'value', target: 1 }, 'teamId');
    await bad({ userId: crypto.randomUUID(), ...Q2, metric: 'value', target: 1 }, 'userId');
    await bad({ teamId: crypto.randomUUID(), ...Q2, metric: 'value', target: 1 }, 'teamId');
    await bad(
      { periodStart: '2026-06-30', periodEnd: '2026-04-01', metric: 'value', target: 1 },
      'periodEnd',
    );
    await bad({ ...Q2, metric: 'count', target: 2.5 }, 'target');
    const team = await api({
      method: 'POST',
      url: '/api/crm/teams',
      payload: { name: 'X', memberIds: [lindiwe, crypto.randomUUID()] },
    });
    assert.equal(assertProblem(team, 400).field, 'memberIds[1]');
  });
});
