// The span of days the service accepts (input-rules.ts): every `format: date` and `date-time`
// input is a day from 1900-01-01 to 9999-12-30, else a 400 naming it. Issue 15, defect 3:
// 9999-12-31 answered 500 on the reports and the audit log (the day after it is in year 10000).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { catalogue } from '../../catalogue.ts';
import { FIRST_DAY, LAST_DAY } from './input-rules.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp();
  a = await register(t.app);
  api = as(t.app, a.token, a.companyId);
});
after(() => t.close());

const CASES = [
  ['/api/reports/balance-sheet', 'asOf'],
  ['/api/reports/trial-balance', 'asOf'],
  ['/api/reports/cash-flow', 'to', 'from=2026-01-01'],
  ['/api/audit-log', 'to'],
] as const;

describe('dates outside 1900-01-01 to 9999-12-30', () => {
  test("the issue's reports and the audit log: 9999-12-31 is a 400 naming it, 9999-12-30 answers", async () => {
    for (const [path, name, rest] of CASES) {
      const extra = rest ? `&${rest}` : '';
      const refused = assertProblem(
        await api({ method: 'GET', url: `${path}?${name}=9999-12-31${extra}` }),
        400,
        path,
      );
      assert.equal(refused.field, name, path);
      assert.match(String(refused.detail), new RegExp(`^${name}: .*${FIRST_DAY} to ${LAST_DAY}`));
      const last = await api({ method: 'GET', url: `${path}?${name}=${LAST_DAY}${extra}` });
      assert.equal(last.statusCode, 200, `${path} ${last.body}`);
    }
  });

  test('the first day is 1900-01-01; a date-time and a body date follow the same span', async () => {
    const early = await api({ method: 'GET', url: '/api/reports/balance-sheet?asOf=1899-12-31' });
    assert.equal(assertProblem(early, 400).field, 'asOf');
    const first = await api({ method: 'GET', url: `/api/reports/balance-sheet?asOf=${FIRST_DAY}` });
    assert.equal(first.statusCode, 200, first.body);

    const since = await api({ method: 'GET', url: '/api/contacts?updatedSince=9999-12-31T00:00:00Z' });
    assert.equal(assertProblem(since, 400).field, 'updatedSince');
    const sinceLast = await api({ method: 'GET', url: '/api/contacts?updatedSince=9999-12-30T23:59:59Z' });
    assert.equal(sinceLast.statusCode, 200, sinceLast.body);

    const journal = await api({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '9999-12-31',
        description: 'Far away',
        lines: [
          { accountCode: '6100', debit: 1 },
          { accountCode: '1000', credit: 1 },
        ],
      },
    });
    assert.equal(assertProblem(journal, 400).field, 'date');
  });

  test('every date parameter of every query: 9999-12-31 a 400 naming it, 9999-12-30 never a 5xx', async () => {
    let checked = 0;
    for (const route of catalogue) {
      const query = route.query as
        | { properties?: Record<string, { format?: string }>; required?: string[] }
        | undefined;
      const properties = query?.properties;
      for (const [name, schema] of Object.entries(properties ?? {})) {
        if (schema.format !== 'date' && schema.format !== 'date-time') continue;
        const url = route.path.replace(/\{\w+\}/g, () => crypto.randomUUID());
        const value = (day: string) => (schema.format === 'date' ? day : `${day}T12:00:00Z`);
        const where = `${route.method} ${route.path} ?${name}`;
        // The query's other required ids (a report's bankAccountId), so the date is what is wrong.
        const others = (query?.required ?? [])
          .filter((r) => r !== name && properties?.[r]?.format === 'uuid')
          .map((r) => `&${r}=${crypto.randomUUID()}`)
          .join('');
        const refused = await api({
          method: route.method,
          url: `${url}?${name}=${value('9999-12-31')}${others}`,
        });
        assert.equal(assertProblem(refused, 400, where).field, name, where);
        const last = await api({ method: route.method, url: `${url}?${name}=${value(LAST_DAY)}${others}` });
        assert.ok(last.statusCode < 500, `${where}: ${last.statusCode} ${last.body}`);
        checked++;
      }
    }
    assert.ok(checked >= 30, `only ${checked} date parameters`);
  });
});
