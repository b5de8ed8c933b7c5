// The pipeline's stages: the four every tenant starts with, adding one in a position, moving and
// renaming, a name taken (409), probability checks, and removal refused while an open
// opportunity sits in the stage.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'starter' });
  api = as(t.app, a.token);
});
after(() => t.close());

async function list() {
  const res = await api({ method: 'GET', url: '/api/crm/stages' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as {
    id: string;
    name: string;
    probability: number;
    position: number;
    openCount: number;
  }[];
}
const names = async () => (await list()).map((s) => `${s.position}:${s.name}:${s.probability}`);

describe('pipeline stages', () => {
  test('every tenant starts with four, in order', async () => {
    assert.deepEqual(await names(), [
      '0:Qualification:10',
      '1:Needs analysis:25',
      '2:Proposal:50',
      '3:Negotiation:75',
    ]);
  });

  test('add (last, or at a position), move, rename, change the probability', async () => {
    const last = await api({
      method: 'POST',
      url: '/api/crm/stages',
      payload: { name: 'Contract sent', probability: 90 },
    });
    assert.equal(last.statusCode, 201, last.body);
    assert.equal(last.json().position, 4);
    const demo = await api({
      method: 'POST',
      url: '/api/crm/stages',
      payload: { name: 'Demo booked', probability: 40, position: 2 },
    });
    assert.equal(demo.statusCode, 201, demo.body);
    assert.deepEqual(await names(), [
      '0:Qualification:10',
      '1:Needs analysis:25',
      '2:Demo booked:40',
      '3:Proposal:50',
      '4:Negotiation:75',
      '5:Contract sent:90',
    ]);
    const moved = await api({
      method: 'PATCH',
      url: `/api/crm/stages/${demo.json().id}`,
      payload: { name: 'Demo done', probability: 35.5, position: 0 },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(await names(), [
      '0:Demo done:35.5',
      '1:Qualification:10',
      '2:Needs analysis:25',
      '3:Proposal:50',
      '4:Negotiation:75',
      '5:Contract sent:90',
    ]);
    const taken = await api({
      method: 'POST',
      url: '/api/crm/stages',
      payload: { name: 'PROPOSAL', probability: 5 },
    });
    assertProblem(taken, 409);
    const over = await api({
      method: 'POST',
      url: '/api/crm/stages',
      payload: { name: 'Over', probability: 101 },
    });
    assert.equal(assertProblem(over, 400).field, 'probability');
    const fine = await api({
      method: 'POST',
      url: '/api/crm/stages',
      payload: { name: 'Fine', probability: 1.005 },
    });
    assert.equal(assertProblem(fine, 400).field, 'probability');
  });

  test('removal: refused while an open opportunity sits there; then soft, and the rest close up', async () => {
    const stages = await list();
    const proposal = stages.find((s) => s.name === 'Proposal')!;
    const o = await api({
      method: 'POST',
      url: '/api/crm/opportunities',
      payload: { name: 'Blocking deal', stageId: proposal.id, amount: 100 },
    });
    assert.equal(o.statusCode, 201, o.body);
    assert.equal((await list()).find((s) => s.id === proposal.id)!.openCount, 1);
    assertProblem(await api({ method: 'DELETE', url: `/api/crm/stages/${proposal.id}` }), 409);
    const lost = await api({
      method: 'POST',
      url: `/api/crm/opportunities/${o.json().id}/lost`,
      payload: { reason: 'No budget' },
    });
    assert.equal(lost.statusCode, 200, lost.body);
    const del = await api({ method: 'DELETE', url: `/api/crm/stages/${proposal.id}` });
    assert.equal(del.statusCode, 204, del.body);
    assertProblem(await api({ method: 'GET', url: `/api/crm/stages/${proposal.id}` }), 404);
    assert.deepEqual(await names(), [
      '0:Demo done:35.5',
      '1:Qualification:10',
      '2:Needs analysis:25',
      '3:Negotiation:75',
      '4:Contract sent:90',
    ]);
    // The lost opportunity still names the stage it closed at.
    const read = await api({ method: 'GET', url: `/api/crm/opportunities/${o.json().id}` });
    assert.equal(read.json().stage.name, 'Proposal');
    // Another tenant's stage is a 404 (a name free again: Proposal can be added back).
    const b = await register(t.app, { plan: 'starter' });
    assertProblem(
      await as(
        t.app,
        b.token,
      )({ method: 'PATCH', url: `/api/crm/stages/${stages[0]!.id}`, payload: { probability: 1 } }),
      404,
    );
    const back = await api({
      method: 'POST',
      url: '/api/crm/stages',
      payload: { name: 'Proposal', probability: 50 },
    });
    assert.equal(back.statusCode, 201, back.body);
  });
});
