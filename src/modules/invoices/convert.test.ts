// Issue 14, item 11: converting a quote takes issueDate (default today, UTC), never before the
// quote's own issue date (400 naming issueDate), and the invoice falls due after the payment terms
// counted from that date.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
let s: Sales;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  // Today is 2026-03-20 (UTC) for this file.
  t.clock.set('2026-03-20T10:00:00Z');
  s = await salesSetup(t, await register(t.app));
});
after(() => t.close());

/** A quote dated 2026-03-02 with 14 days' payment terms. */
const quote = (o: Record<string, unknown> = {}) =>
  createDoc(s, { documentType: 'quote', paymentTermsDays: 14, ...o });

const convert = (id: string, body: Record<string, unknown>) =>
  s.api({
    method: 'POST',
    url: `/api/invoices/${id}/convert`,
    payload: { documentType: 'invoice', ...body },
  });

describe('convert: the invoice date', () => {
  test('no issueDate: dated today, due 14 days later (2026-03-20 + 14 = 2026-04-03)', async () => {
    const q = await quote();
    const res = await convert(q.id, {});
    assert.equal(res.statusCode, 201, res.body);
    const inv = res.json();
    // 20 March + 14 days: 11 days to 31 March, 3 more into April.
    assert.deepEqual([inv.issueDate, inv.dueDate, inv.paymentTermsDays], ['2026-03-20', '2026-04-03', 14]);
  });

  test('issueDate given: the invoice takes it, and the terms run from it', async () => {
    const q = await quote();
    const res = await convert(q.id, { issueDate: '2026-03-31' });
    assert.equal(res.statusCode, 201, res.body);
    // 31 March + 14 days = 14 April.
    assert.deepEqual([res.json().issueDate, res.json().dueDate], ['2026-03-31', '2026-04-14']);
    // The quote's own date is allowed: 2 March + 14 = 16 March.
    const same = await convert((await quote()).id, { issueDate: '2026-03-02' });
    assert.equal(same.statusCode, 201, same.body);
    assert.deepEqual([same.json().issueDate, same.json().dueDate], ['2026-03-02', '2026-03-16']);
  });

  test('before the quote’s issue date: 400 naming issueDate, and the quote is left as it was', async () => {
    const q = await quote();
    const body = assertProblem(await convert(q.id, { issueDate: '2026-03-01' }), 400);
    assert.equal(body.field, 'issueDate');
    assert.match(String(body.detail), /2026-03-02/);
    assert.equal((await s.api({ method: 'GET', url: `/api/invoices/${q.id}` })).json().status, 'draft');
    // A quote dated after today, converted without a date: today is before it, also a 400.
    const future = await quote({ issueDate: '2026-04-10', dueDate: '2026-04-24' });
    const late = assertProblem(await convert(future.id, {}), 400);
    assert.equal(late.field, 'issueDate');
    assert.match(String(late.detail), /2026-04-10/);
    // An impossible date is refused by the schema, naming the field too.
    assert.match(
      String(assertProblem(await convert(q.id, { issueDate: '2026-02-30' }), 400).detail),
      /issueDate/,
    );
  });
});
