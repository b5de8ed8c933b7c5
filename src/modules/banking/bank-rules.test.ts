// Bank rules: all/any, priority and stop-processing on import, actions and splits validated,
// the rules as a resource, tenancy. (Matching alone: bank-rules.match.test.ts; re-running:
// bank-rules.run.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import {
  chartOf,
  codings,
  createRule,
  line,
  TELKOM,
  UBER_EATS,
  UBER_PAYOUT,
  UBER_RIDE,
} from './bank-rules.factories.ts';
import { bankingSetup, ingest } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const setup = async () => bankingSetup(t, await register(t.app, { plan: 'free' }));

describe('rules on import', () => {
  test('all/any, priority and stop-processing: the first match codes, a non-stop rule lets later ones fill', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const contact = await k.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Uber BV', contactType: 'SUPPLIER' },
    });
    const uberId = contact.json().id;
    // 5: stop — any Uber Eats line is staff meals (6750) and nothing else.
    await createRule(k, {
      name: 'Meals',
      priority: 5,
      conditions: [{ field: 'description', operator: 'contains', value: 'uber eats' }],
      actions: { accountId: c.code('6750'), description: 'Staff meals' },
    });
    // 10: not stop — Uber going out (all: the text and the direction) is travel on 6750, input VAT.
    await createRule(k, {
      name: 'Uber travel',
      priority: 10,
      match: 'all',
      stopProcessing: false,
      conditions: [
        { field: 'description', operator: 'contains', value: 'UBER' },
        { field: 'direction', operator: 'equals', value: 'out' },
      ],
      actions: { accountId: c.code('6750'), taxCode: 'input_standard' },
    });
    // 20: any — the payee is Uber BV, or the reference looks like a trip: contact and description;
    // its account (4000) fills only where no earlier rule set one.
    await createRule(k, {
      name: 'Uber contact',
      priority: 20,
      match: 'any',
      conditions: [
        { field: 'payee', operator: 'equals', value: 'uber bv' },
        { field: 'reference', operator: 'wildcard', value: 'TRIP-????' },
      ],
      actions: { contactId: uberId, description: 'Uber', accountId: c.code('4000') },
    });
    const { ids } = await ingest(t, k, [UBER_RIDE, UBER_EATS, UBER_PAYOUT, TELKOM]);
    assert.deepEqual(await codings(k, ids), [
      // ride: travel (first, not stop) set account and tax; contact rule (payee) filled contact and description
      ['Uber travel', c.code('6750'), uberId, 'input_standard', 'Uber'],
      // eats: Meals stops there: no tax code, no contact
      ['Meals', c.code('6750'), null, null, 'Staff meals'],
      // payout: money in, so travel's "all" fails; the contact rule's "any" holds by the reference
      ['Uber contact', c.code('4000'), uberId, null, 'Uber'],
      // Telkom: no rule
      [null, null, null, null, null],
    ]);
    const ride = await line(k, ids[0]!);
    assert.equal(ride.codedBy, 'rule');
    assert.ok(ride.ruleAppliedAt);
    assert.equal((await line(k, ids[3]!)).codedBy, null);
  });

  test('a rule for one bank account leaves the other accounts alone; a deactivated rule does not run', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const other = await k.api({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: 'Nedbank savings', bank: 'nedbank' },
    });
    await createRule(k, {
      name: 'Telkom on savings only',
      bankAccountId: other.json().id,
      conditions: [{ field: 'description', operator: 'wildcard', value: '*telkom*' }],
      actions: { accountId: c.code('6750') },
    });
    await createRule(k, {
      name: 'Off',
      isActive: false,
      conditions: [{ field: 'description', operator: 'contains', value: 'telkom' }],
      actions: { accountId: c.code('6100') },
    });
    const { ids } = await ingest(t, k, [TELKOM]);
    assert.deepEqual(await codings(k, ids), [[null, null, null, null, null]]);
  });
});

describe('splits and validation', () => {
  test('a split by 60/40 codes the line; percentages must sum to exactly 100', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const splits = (a: number, b: number | string) => [
      { accountId: c.code('6750'), taxCode: 'input_standard', percent: a },
      { accountId: c.code('6100'), taxCode: 'input_exempt', percent: b, description: 'fees' },
    ];
    const bad = await k.api({
      method: 'POST',
      url: '/api/bank-rules',
      payload: {
        name: 'x',
        conditions: [{ field: 'description', operator: 'contains', value: 'telkom' }],
        actions: { splits: splits(60, '39.99') },
      },
    });
    assert.equal(assertProblem(bad, 400).field, 'actions.splits');
    assert.match(String(bad.json().detail), /99\.99/);
    await createRule(k, {
      name: 'Telkom split',
      conditions: [{ field: 'description', operator: 'contains', value: 'telkom' }],
      actions: { splits: splits(60, '40.00') },
    });
    const { ids } = await ingest(t, k, [TELKOM]);
    const l = await line(k, ids[0]!);
    assert.equal(l.rule.name, 'Telkom split');
    assert.equal(l.coding.accountId, null);
    assert.deepEqual(
      l.coding.splits.map((s: { percent: number; taxCode: string }) => [s.percent, s.taxCode]),
      [
        [60, 'input_standard'],
        [40, 'input_exempt'],
      ],
    );
  });

  test('each bad rule answers 400 naming the field', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const cond = [{ field: 'description', operator: 'contains', value: 'x' }];
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          conditions: [{ field: 'description', operator: 'gt', value: '5' }],
          actions: { accountId: c.code('6750') },
        },
        'conditions[0].operator',
      ],
      [
        {
          conditions: [{ field: 'amount', operator: 'between', min: 200, max: 100 }],
          actions: { accountId: c.code('6750') },
        },
        'conditions[0].max',
      ],
      [
        {
          conditions: [{ field: 'amount', operator: 'equals', value: 'ten' }],
          actions: { accountId: c.code('6750') },
        },
        'conditions[0].value',
      ],
      [
        {
          conditions: [{ field: 'direction', operator: 'equals', value: 'sideways' }],
          actions: { accountId: c.code('6750') },
        },
        'conditions[0].value',
      ],
      [{ conditions: cond, actions: { accountId: c.control } }, 'actions.accountId'],
      [{ conditions: cond, actions: { accountId: crypto.randomUUID() } }, 'actions.accountId'],
      [{ conditions: cond, actions: { contactId: crypto.randomUUID() } }, 'actions.contactId'],
      [{ conditions: cond, actions: { costCentreId: crypto.randomUUID() } }, 'actions.costCentreId'],
      [{ conditions: cond, actions: {} }, 'actions'],
      [
        {
          conditions: cond,
          actions: {
            accountId: c.code('6750'),
            splits: [
              { accountId: c.code('6750'), taxCode: 'input_standard', percent: 50 },
              { accountId: c.code('6100'), taxCode: 'input_standard', percent: 50 },
            ],
          },
        },
        'actions.accountId',
      ],
      [
        { conditions: cond, actions: { accountId: c.code('6750') }, bankAccountId: crypto.randomUUID() },
        'bankAccountId',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await k.api({ method: 'POST', url: '/api/bank-rules', payload: { name: 'bad', ...body } });
      assert.equal(assertProblem(res, 400, field).field, field, res.body);
    }
    // Unknown properties are refused, and so is an unknown tax code.
    assertProblem(
      await k.api({
        method: 'POST',
        url: '/api/bank-rules',
        payload: { name: 'x', conditions: cond, actions: { accountId: c.code('6750') }, regex: '.*' },
      }),
      400,
    );
    assertProblem(
      await k.api({
        method: 'POST',
        url: '/api/bank-rules',
        payload: { name: 'x', conditions: cond, actions: { taxCode: 'vat15' } },
      }),
      400,
    );
  });
});

describe('the rules as a resource', () => {
  test('listed by priority, clientId idempotent, changed, deleted softly; another tenant gets 404', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const clientId = crypto.randomUUID();
    const body = {
      clientId,
      name: 'Telkom',
      conditions: [{ field: 'description', operator: 'contains', value: 'telkom' }],
      actions: { accountId: c.code('6750') },
    };
    const first = await k.api({ method: 'POST', url: '/api/bank-rules', payload: body });
    assert.equal(first.statusCode, 201, first.body);
    const again = await k.api({ method: 'POST', url: '/api/bank-rules', payload: body });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().id, clientId);
    assert.equal(first.json().priority, 10); // the first rule: 10; each next one 10 after the last
    const second = await createRule(k, {
      name: 'Bank fees',
      conditions: [{ field: 'description', operator: 'contains', value: 'fee' }],
      actions: { accountId: c.code('6100') },
    });
    assert.equal(second.priority, 20);
    await createRule(k, {
      name: 'First',
      priority: 1,
      conditions: [{ field: 'amount', operator: 'gt', value: 0 }],
      actions: { description: 'x' },
    });
    const names = () =>
      k
        .api({ method: 'GET', url: '/api/bank-rules' })
        .then((r) => r.json().map((x: { name: string }) => x.name));
    assert.deepEqual(await names(), ['First', 'Telkom', 'Bank fees']);
    const patched = await k.api({
      method: 'PATCH',
      url: `/api/bank-rules/${second.id}`,
      payload: { priority: 0, stopProcessing: false },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().stopProcessing, false);
    assert.deepEqual(await names(), ['Bank fees', 'First', 'Telkom']);
    assert.equal((await k.api({ method: 'DELETE', url: `/api/bank-rules/${clientId}` })).statusCode, 204);
    assertProblem(await k.api({ method: 'GET', url: `/api/bank-rules/${clientId}` }), 404);
    assert.deepEqual(await names(), ['Bank fees', 'First']);

    const other = await setup();
    assertProblem(await other.api({ method: 'GET', url: `/api/bank-rules/${second.id}` }), 404);
    assertProblem(
      await other.api({ method: 'PATCH', url: `/api/bank-rules/${second.id}`, payload: { name: 'mine' } }),
      404,
    );
    assertProblem(await other.api({ method: 'DELETE', url: `/api/bank-rules/${second.id}` }), 404);
    assert.deepEqual((await other.api({ method: 'GET', url: '/api/bank-rules' })).json(), []);
    const run = await other.api({
      method: 'POST',
      url: '/api/bank-rules/run',
      payload: { ruleIds: [second.id] },
    });
    assert.equal(assertProblem(run, 400).field, 'ruleIds[0]');
  });
});
