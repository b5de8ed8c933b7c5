// Bank rules: conditions (all/any, wildcards, amounts, direction), priority and stop-processing,
// actions and splits validated, rules run on import and re-run, tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { chartOf, codings, createRule, line, markReconciled } from './bank-rules.factories.ts';
import { codeLine, compileRule, type RuleToMatch, wildcardPattern } from './bank-rules.match.ts';
import { bankingSetup, ingest } from './banking.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const setup = async () => bankingSetup(t, await register(t.app, { plan: 'free' }));

const UBER_RIDE = {
  line: 1,
  date: '2026-03-02',
  amount: '-120.00',
  description: 'UBER *TRIP HELP.UBER.COM',
  payee: 'Uber BV',
};
const UBER_EATS = { line: 2, date: '2026-03-03', amount: '-80.00', description: 'Uber Eats Sandton' };
const UBER_PAYOUT = {
  line: 3,
  date: '2026-03-04',
  amount: '500.00',
  description: 'UBER PAYOUT',
  reference: 'TRIP-1234',
};
const TELKOM = { line: 4, date: '2026-03-05', amount: '-200.00', description: 'DEBIT ORDER TELKOM MOBILE' };

describe('matching (pure)', () => {
  test('a wildcard is the whole field: * any run, ? one character, everything else literal, any case', () => {
    assert.ok(wildcardPattern('*telkom*').test('DEBIT ORDER TELKOM MOBILE'));
    assert.ok(!wildcardPattern('telkom*').test('DEBIT ORDER TELKOM MOBILE'));
    assert.ok(wildcardPattern('FNB ??? FEE').test('fnb atm fee'));
    assert.ok(!wildcardPattern('FNB ??? FEE').test('FNB CASH FEE'));
    // A dot, brackets or a plus are text, not a regular expression.
    assert.ok(!wildcardPattern('A.B').test('AXB'));
    assert.ok(wildcardPattern('(1+1)*').test('(1+1) = 2'));
  });

  test('amounts compare the size of the line; between includes both ends', () => {
    const rule = (conditions: RuleToMatch['conditions']): RuleToMatch => ({
      id: 'r',
      name: 'r',
      match: 'all',
      conditions,
      actions: { description: 'hit' },
      stopProcessing: true,
      bankAccountId: null,
    });
    const hits = (r: RuleToMatch, amounts: string[]) =>
      amounts.map(
        (amount) =>
          codeLine([compileRule(r)], {
            bankAccountId: 'a',
            description: 'x',
            reference: null,
            payee: null,
            amount,
          }) !== null,
      );
    const between = rule([{ field: 'amount', operator: 'between', min: '100.00', max: '200.00' }]);
    assert.deepEqual(hits(between, ['-99.99', '100.00', '-200.00', '200.01']), [false, true, true, false]);
    const outOver = rule([
      { field: 'amount', operator: 'gt', value: '150.00' },
      { field: 'direction', operator: 'equals', value: 'out' },
    ]);
    assert.deepEqual(hits(outOver, ['-150.00', '-150.01', '150.01']), [false, true, false]);
    assert.deepEqual(hits(rule([{ field: 'amount', operator: 'lt', value: '10' }]), ['9.99', '-10.00']), [
      true,
      false,
    ]);
    assert.deepEqual(
      hits(rule([{ field: 'amount', operator: 'equals', value: '42.50' }]), ['-42.5', '42.51']),
      [true, false],
    );
  });
});

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

describe('re-running the rules', () => {
  test('a rule added later codes what is held; a changed rule recodes; a person and a reconciled line are left alone', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const { ids } = await ingest(t, k, [UBER_RIDE, UBER_EATS, UBER_PAYOUT, TELKOM]);
    const [ride, eats, payout, telkom] = ids as [string, string, string, string];
    // A person codes the payout; the Telkom line is reconciled.
    const coded = await k.api({
      method: 'PATCH',
      url: `/api/bank-transactions/${payout}`,
      payload: { accountId: c.code('4000'), description: 'mine' },
    });
    assert.equal(coded.statusCode, 200, coded.body);
    await markReconciled(t, k, [telkom]);
    const rule = await createRule(k, {
      name: 'Uber',
      conditions: [{ field: 'description', operator: 'contains', value: 'uber' }],
      actions: { accountId: c.code('6750') },
    });
    const run = () =>
      k.api({ method: 'POST', url: '/api/bank-rules/run', payload: {} }).then((r) => {
        assert.equal(r.statusCode, 200, r.body);
        return r.json();
      });
    // Examined: ride and eats (the payout is a person's, Telkom is reconciled); both coded.
    assert.deepEqual(await run(), { examined: 2, coded: 2, cleared: 0, unchanged: 0 });
    assert.deepEqual(await run(), { examined: 2, coded: 0, cleared: 0, unchanged: 2 });
    assert.deepEqual((await codings(k, [payout]))[0], [null, c.code('4000'), null, null, 'mine']);
    assert.equal((await line(k, payout)).codedBy, 'person');
    // Narrowed to "eats": the ride no longer matches and is cleared; eats is recoded the same.
    await k.api({
      method: 'PATCH',
      url: `/api/bank-rules/${rule.id}`,
      payload: { conditions: [{ field: 'description', operator: 'wildcard', value: 'uber eats*' }] },
    });
    assert.deepEqual(await run(), { examined: 2, coded: 0, cleared: 1, unchanged: 1 });
    assert.deepEqual(await codings(k, [ride, eats]), [
      [null, null, null, null, null],
      ['Uber', c.code('6750'), null, null, null],
    ]);
    // Dates narrow the run: only 2026-03-02 (the ride) is looked at.
    assert.deepEqual(
      (
        await k.api({
          method: 'POST',
          url: '/api/bank-rules/run',
          payload: { from: '2026-03-02', to: '2026-03-02' },
        })
      ).json(),
      { examined: 1, coded: 0, cleared: 0, unchanged: 1 },
    );
    assert.equal(
      assertProblem(
        await k.api({
          method: 'POST',
          url: '/api/bank-rules/run',
          payload: { from: '2026-03-05', to: '2026-03-01' },
        }),
        400,
      ).field,
      'to',
    );
    // One new rule run alone: it looks at the lines no other rule coded (the ride), not at eats
    // (the Uber rule's) nor the payout (a person's), and codes the ride.
    const rides = await createRule(k, {
      name: 'Rides',
      conditions: [{ field: 'description', operator: 'wildcard', value: 'uber ?trip*' }],
      actions: { accountId: c.code('6100') },
    });
    const alone = await k.api({
      method: 'POST',
      url: '/api/bank-rules/run',
      payload: { ruleIds: [rides.id] },
    });
    assert.deepEqual(alone.json(), { examined: 1, coded: 1, cleared: 0, unchanged: 0 });
    assert.deepEqual(await codings(k, [ride, eats]), [
      ['Rides', c.code('6100'), null, null, null],
      ['Uber', c.code('6750'), null, null, null],
    ]);
    await k.api({ method: 'PATCH', url: `/api/bank-rules/${rides.id}`, payload: { isActive: false } });
    const off = await k.api({ method: 'POST', url: '/api/bank-rules/run', payload: { ruleIds: [rides.id] } });
    assert.equal(assertProblem(off, 400).field, 'ruleIds[0]');
  });

  test('6,000 lines: coded in bulk on import, and re-run in a few statements', async () => {
    const k = await setup();
    const c = await chartOf(k);
    const fees = await createRule(k, {
      name: 'Fees',
      conditions: [{ field: 'description', operator: 'wildcard', value: '*FEE*' }],
      actions: { accountId: c.code('6100') },
    });
    const big = await createRule(k, {
      name: 'Big in',
      match: 'all',
      conditions: [
        { field: 'amount', operator: 'gt', value: 1000 },
        { field: 'direction', operator: 'equals', value: 'in' },
      ],
      actions: { accountId: c.code('4000') },
    });
    // 6,000 lines (the bench takes 50,000; PGlite here is single-threaded and shared): i % 3 == 0
    // a fee (2,000), i % 3 == 1 a big payment in (2,000), the rest (2,000) no rule.
    const lines = Array.from({ length: 6000 }, (_, i) => ({
      line: i + 1,
      date: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
      amount: i % 3 === 0 ? '-12.50' : i % 3 === 1 ? '1500.00' : '-99.00',
      description: i % 3 === 0 ? `SERVICE FEE ${i}` : `PAYMENT ${i}`,
    }));
    const { ids } = await ingest(t, k, lines);
    assert.equal(ids.length, 6000);
    const total = (q: string) =>
      k.api({ method: 'GET', url: `/api/bank-transactions?limit=1&${q}` }).then((r) => r.json().total);
    assert.deepEqual([await total(`ruleId=${fees.id}`), await total(`ruleId=${big.id}`)], [2000, 2000]);
    // The big-payment rule goes: a re-run clears its 2,000 lines and leaves the fees as they are.
    await k.api({ method: 'DELETE', url: `/api/bank-rules/${big.id}` });
    const started = Date.now();
    const run = await k.api({ method: 'POST', url: '/api/bank-rules/run', payload: {} });
    const ms = Date.now() - started;
    assert.deepEqual(run.json(), { examined: 6000, coded: 0, cleared: 2000, unchanged: 4000 });
    assert.deepEqual([await total(`ruleId=${fees.id}`), await total(`ruleId=${big.id}`)], [2000, 0]);
    assert.ok(ms < 15000, `re-run over 6,000 lines took ${ms} ms`);
  });
});
