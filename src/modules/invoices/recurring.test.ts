// Recurring schedules through the API: create with its defaults and the job it queues for its
// first run, idempotent clientId, validation (400 naming the field), the list and its filters,
// changes (lines, dates, frequency, pause and resume), soft delete, and another tenant's or
// company's schedule answering 404. The job worker does not run here; recurring.run.test.ts
// moves a clock through the runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { JOB_SCHEMA } from '../../platform/jobs/grants.ts';
import { type Sales, salesSetup } from './invoices.factories.ts';
import { RECURRING_QUEUE } from './recurring.run.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

const setup = async (): Promise<Sales> => salesSetup(t, await register(t.app));

const body = (s: Sales, o: Record<string, unknown> = {}) => ({
  contactId: s.customerId,
  frequency: 'monthly',
  startDate: '2026-04-01',
  lines: [{ description: 'Monthly retainer', quantity: 1, unitPrice: 4500 }],
  ...o,
});

async function create(s: Sales, o: Record<string, unknown> = {}) {
  const res = await s.api({ method: 'POST', url: '/api/recurring', payload: body(s, o) });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

const patch = (s: Sales, id: string, payload: object) =>
  s.api({ method: 'PATCH', url: `/api/recurring/${id}`, payload });

/** The jobs queued for a schedule: their period and run time. */
async function queued(recurringId: string) {
  const r = await sql<{ data: { period: string }; start_after: Date; singleton_key: string }>`
    select data, start_after, singleton_key from ${sql.raw(JOB_SCHEMA)}.job
     where name = ${RECURRING_QUEUE} and data->>'recurringId' = ${recurringId} and state = 'created'
     order by start_after`.execute(t.database.db);
  return r.rows.map((j) => ({
    period: j.data.period,
    startAfter: new Date(j.start_after).toISOString(),
    key: j.singleton_key,
  }));
}

describe('create', () => {
  test('201 with its defaults; the first run is queued for its start date, 00:00 UTC', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b);
    const r = await create(s, { autoSend: true, autoRelease: true });
    assert.equal(r.documentType, 'invoice');
    assert.equal(r.frequency, 'monthly');
    assert.equal(r.interval, 1);
    assert.equal(r.startDate, '2026-04-01');
    assert.equal(r.nextDate, '2026-04-01');
    assert.equal(r.endDate, null);
    assert.equal(r.paymentTermsDays, 30, "the contact's payment terms");
    assert.equal(r.currency, 'ZAR');
    assert.deepEqual([r.autoRelease, r.autoSend, r.active, r.status], [true, true, true, 'active']);
    assert.deepEqual([r.lastRunDate, r.lastError, r.documentCount], [null, null, 0]);
    assert.equal(r.contactName, 'Thandi Stores (Pty) Ltd');
    assert.deepEqual(r.lines, [
      {
        lineNo: 1,
        description: 'Monthly retainer',
        quantity: 1,
        unitPrice: 4500,
        discountRate: null,
        taxCode: null,
        vatRate: null,
        accountId: null,
        productId: null,
        variantId: null,
        unit: null,
        batchCode: null,
      },
    ]);
    assert.deepEqual(await queued(r.id), [
      {
        period: '2026-04-01',
        startAfter: '2026-04-01T00:00:00.000Z',
        key: `${b.tenantId}:${r.id}:2026-04-01`,
      },
    ]);
    const got = await s.api({ method: 'GET', url: `/api/recurring/${r.id}` });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), r);
  });

  test('lines, terms and header fields are kept as given; a paused schedule queues nothing', async () => {
    const s = await setup();
    const r = await create(s, {
      interval: 3,
      frequency: 'weekly',
      endDate: '2026-12-31',
      paymentTermsDays: 7,
      reference: 'PO 1234',
      terms: 'Payable by EFT',
      notes: 'Thank you',
      active: false,
      lines: [
        { description: 'Discounted', quantity: 7, unitPrice: 14.99, discountRate: 12.5 },
        { description: 'Exported', quantity: 1, unitPrice: 500, vatRate: 0 },
      ],
    });
    assert.deepEqual(
      [r.frequency, r.interval, r.endDate, r.paymentTermsDays, r.reference, r.terms, r.notes],
      ['weekly', 3, '2026-12-31', 7, 'PO 1234', 'Payable by EFT', 'Thank you'],
    );
    assert.deepEqual([r.active, r.status], [false, 'paused']);
    assert.deepEqual(
      r.lines.map((l: { discountRate: number | null; vatRate: number | null }) => [
        l.discountRate,
        l.vatRate,
      ]),
      [
        [12.5, null],
        [null, 0],
      ],
    );
    assert.deepEqual(await queued(r.id), []);
  });

  test('clientId: the same schedule again answers 200; a non-UUID is 400 naming it', async () => {
    const s = await setup();
    const clientId = crypto.randomUUID();
    const first = await create(s, { clientId });
    assert.equal(first.id, clientId);
    const again = await s.api({ method: 'POST', url: '/api/recurring', payload: body(s, { clientId }) });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().id, clientId);
    assert.equal((await queued(clientId)).length, 1, 'one job for its first run');
    const list = (await s.api({ method: 'GET', url: '/api/recurring' })).json();
    assert.equal(list.total, 1);
    const bad = await s.api({
      method: 'POST',
      url: '/api/recurring',
      payload: body(s, { clientId: 'nope' }),
    });
    assert.equal(assertProblem(bad, 400).field, 'clientId');
  });

  test('400 naming the field: endDate before startDate, an unknown frequency, no such contact, a type not repeated', async () => {
    const s = await setup();
    const post = (o: Record<string, unknown>) =>
      s.api({ method: 'POST', url: '/api/recurring', payload: body(s, o) });
    const end = assertProblem(await post({ endDate: '2026-03-31' }), 400);
    assert.equal(end.field, 'endDate');
    const freq = assertProblem(await post({ frequency: 'biweekly' }), 400);
    assert.equal(freq.field, 'frequency');
    assert.match(String(freq.detail), /must be one of weekly, fortnightly, monthly/);
    const contact = assertProblem(await post({ contactId: crypto.randomUUID() }), 400);
    assert.equal(contact.field, 'contactId');
    assert.equal(assertProblem(await post({ documentType: 'credit_note' }), 400).field, 'documentType');
    assert.equal(assertProblem(await post({ interval: 0 }), 400).field, 'interval');
    assert.equal(assertProblem(await post({ startDate: '2026-02-30' }), 400).field, 'startDate');
    assert.equal(assertProblem(await post({ lines: [] }), 400).field, 'lines');
    const decimals = await post({ lines: [{ description: 'x', quantity: 1, unitPrice: 1.23456 }] });
    assert.equal(assertProblem(decimals, 400).field, 'lines[0].unitPrice');
    const account = await post({
      lines: [{ description: 'x', quantity: 1, unitPrice: 1, accountId: crypto.randomUUID() }],
    });
    assert.equal(assertProblem(account, 400).field, 'lines[0].accountId');
    // −10 + 15% = −11.50: an invoice below zero (issue 34, item 18) would be refused at the run.
    const negative = await post({ lines: [{ description: 'x', quantity: -1, unitPrice: 10 }] });
    assert.equal(assertProblem(negative, 422).field, 'total');
    // Released documents post in the base currency only: refused now, not at the run.
    const usd = assertProblem(await post({ currency: 'USD', autoRelease: true }), 400);
    assert.equal(usd.field, 'autoRelease');
    assert.equal((await post({ currency: 'USD' })).statusCode, 201, 'a USD schedule of drafts is fine');
    assert.equal((await s.api({ method: 'GET', url: '/api/recurring' })).json().total, 1);
  });
});

describe('list', () => {
  test('paged by next run date; status and contactId filters; an unknown status is 400', async () => {
    const s = await setup();
    const later = await create(s, { startDate: '2026-06-01' });
    const sooner = await create(s, { startDate: '2026-04-15' });
    const paused = await create(s, { startDate: '2026-05-01', active: false });
    const other = await s.api({ method: 'POST', url: '/api/contacts', payload: { name: 'Other customer' } });
    const theirs = await create(s, { startDate: '2026-07-01', contactId: other.json().id });
    const ids = (q = '') =>
      s
        .api({ method: 'GET', url: `/api/recurring${q}` })
        .then((r) => r.json().items.map((i: { id: string }) => i.id));
    assert.deepEqual(await ids(), [sooner.id, paused.id, later.id, theirs.id]);
    assert.deepEqual(await ids('?status=paused'), [paused.id]);
    assert.deepEqual(await ids('?status=active'), [sooner.id, later.id, theirs.id]);
    assert.deepEqual(await ids(`?contactId=${other.json().id}`), [theirs.id]);
    const page = (await s.api({ method: 'GET', url: '/api/recurring?limit=2&page=2' })).json();
    assert.deepEqual(
      [page.total, page.page, page.limit, page.totalPages, page.items.length],
      [4, 2, 2, 2, 2],
    );
    // Ended: past its end date.
    const ended = await patch(s, later.id, { nextDate: '2026-07-01', endDate: '2026-06-15' });
    assert.deepEqual([ended.json().status, ended.json().nextDate], ['ended', null]);
    assert.deepEqual(await ids('?status=ended'), [later.id]);
    assert.equal(
      assertProblem(await s.api({ method: 'GET', url: '/api/recurring?status=stopped' }), 400).field,
      'status',
    );
  });
});

describe('change', () => {
  test('lines are replaced whole; terms and flags change; the answer is what GET answers', async () => {
    const s = await setup();
    const r = await create(s);
    const res = await patch(s, r.id, {
      lines: [
        { description: 'Retainer', quantity: 1, unitPrice: 5000 },
        { description: 'Travel', quantity: 2, unitPrice: 350.5, vatRate: 0 },
      ],
      paymentTermsDays: 14,
      reference: null,
      endDate: '2027-03-31',
      notes: 'Now with travel',
      autoRelease: true,
      autoSend: true,
    });
    assert.equal(res.statusCode, 200, res.body);
    const u = res.json();
    assert.deepEqual(
      u.lines.map((l: { lineNo: number; description: string; unitPrice: number }) => [
        l.lineNo,
        l.description,
        l.unitPrice,
      ]),
      [
        [1, 'Retainer', 5000],
        [2, 'Travel', 350.5],
      ],
    );
    assert.deepEqual(
      [u.paymentTermsDays, u.reference, u.notes, u.autoRelease, u.autoSend],
      [14, null, 'Now with travel', true, true],
    );
    assert.deepEqual((await s.api({ method: 'GET', url: `/api/recurring/${r.id}` })).json(), u);
    const open = (await patch(s, r.id, { endDate: null })).json();
    assert.equal(open.endDate, null);
  });

  test('dates: nextDate re-plans the next run; a new frequency steps from the next run; startDate moves both', async () => {
    const s = await setup();
    const r = await create(s, { startDate: '2026-04-01' });
    const moved = (await patch(s, r.id, { nextDate: '2026-04-20' })).json();
    assert.deepEqual([moved.startDate, moved.nextDate], ['2026-04-01', '2026-04-20']);
    assert.deepEqual(
      (await queued(r.id)).map((j) => j.period),
      ['2026-04-01', '2026-04-20'],
      'the old job stays and will find the schedule changed',
    );
    const quarterly = (await patch(s, r.id, { frequency: 'quarterly' })).json();
    assert.deepEqual([quarterly.frequency, quarterly.nextDate], ['quarterly', '2026-04-20']);
    const restarted = (await patch(s, r.id, { startDate: '2026-05-04' })).json();
    assert.deepEqual([restarted.startDate, restarted.nextDate], ['2026-05-04', '2026-05-04']);
    assert.deepEqual(
      (await queued(r.id)).map((j) => j.period),
      ['2026-04-01', '2026-04-20', '2026-05-04'],
    );
    // Validation names the field.
    assert.equal(assertProblem(await patch(s, r.id, { nextDate: '2026-05-01' }), 400).field, 'nextDate');
    assert.equal(assertProblem(await patch(s, r.id, { endDate: '2026-05-03' }), 400).field, 'endDate');
    assert.equal(assertProblem(await patch(s, r.id, { frequency: 'daily' }), 400).field, 'frequency');
    const nobody = await patch(s, r.id, { contactId: crypto.randomUUID() });
    assert.equal(assertProblem(nobody, 400).field, 'contactId');
    const unchanged = (await s.api({ method: 'GET', url: `/api/recurring/${r.id}` })).json();
    assert.deepEqual(
      [unchanged.nextDate, unchanged.endDate, unchanged.frequency],
      ['2026-05-04', null, 'quarterly'],
    );
  });

  test('pause and resume: paused queues nothing; resumed, a passed nextDate moves to the first run from today', async () => {
    const s = await setup();
    // Started in the past, but paused from the start: its periods so far were never due.
    const r = await create(s, { startDate: '2026-01-31', active: false });
    assert.deepEqual(await queued(r.id), []);
    const resumed = (await patch(s, r.id, { active: true })).json();
    // Today is 2026-03-20: the series of the 31st runs next on 31 March.
    assert.deepEqual([resumed.status, resumed.nextDate], ['active', '2026-03-31']);
    assert.deepEqual(
      (await queued(r.id)).map((j) => j.period),
      ['2026-03-31'],
    );
    const paused = (await patch(s, r.id, { active: false })).json();
    assert.deepEqual([paused.status, paused.active, paused.nextDate], ['paused', false, '2026-03-31']);
    // Resumed with a nextDate: that date stands, passed or not.
    const back = (await patch(s, r.id, { active: true, nextDate: '2026-02-28' })).json();
    assert.deepEqual([back.status, back.nextDate], ['active', '2026-02-28']);
  });
});

describe('delete and other tenants', () => {
  test('DELETE marks it deleted: 204, then 404 everywhere and gone from the list', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b);
    const r = await create(s);
    const del = await s.api({ method: 'DELETE', url: `/api/recurring/${r.id}` });
    assert.equal(del.statusCode, 204, del.body);
    for (const [method, url] of [
      ['GET', `/api/recurring/${r.id}`],
      ['PATCH', `/api/recurring/${r.id}`],
      ['DELETE', `/api/recurring/${r.id}`],
      ['GET', `/api/recurring/${r.id}/invoices`],
    ] as const) {
      assertProblem(
        await s.api({ method, url, ...(method === 'PATCH' ? { payload: { active: true } } : {}) }),
        404,
        `${method} ${url}`,
      );
    }
    assert.equal((await s.api({ method: 'GET', url: '/api/recurring' })).json().total, 0);
    // Kept, marked: nothing is hard-deleted.
    const row = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('recurring_invoices')
        .select(['deleted_at', 'active'])
        .where('id', '=', r.id)
        .executeTakeFirstOrThrow(),
    );
    assert.ok(row.deleted_at);
    assert.equal(row.active, false);
  });

  test("another tenant's schedule is 404; so is one of another company of the same tenant", async () => {
    const s = await setup();
    const r = await create(s);
    const other = await register(t.app);
    const theirs = as(t.app, other.token, other.companyId);
    for (const [method, url] of [
      ['GET', `/api/recurring/${r.id}`],
      ['PATCH', `/api/recurring/${r.id}`],
      ['DELETE', `/api/recurring/${r.id}`],
      ['GET', `/api/recurring/${r.id}/invoices`],
    ] as const) {
      assertProblem(
        await theirs({ method, url, ...(method === 'PATCH' ? { payload: { active: false } } : {}) }),
        404,
        `${method} ${url}`,
      );
    }
    assert.equal((await theirs({ method: 'GET', url: '/api/recurring' })).json().total, 0);
    // Their contact is not ours: 400 naming contactId.
    const mine = await s.api({
      method: 'POST',
      url: '/api/recurring',
      payload: body(s, { contactId: (await salesSetup(t, other)).customerId }),
    });
    assert.equal(assertProblem(mine, 400).field, 'contactId');
    const company = await s.api({ method: 'POST', url: '/api/companies', payload: { name: 'Second Co' } });
    assert.equal(company.statusCode, 201, company.body);
    const owner = (await s.api({ method: 'GET', url: `/api/recurring/${r.id}` })).statusCode;
    assert.equal(owner, 200);
    const elsewhere = await s.api({
      method: 'GET',
      url: `/api/recurring/${r.id}`,
      headers: { 'x-company-id': company.json().id },
    });
    assertProblem(elsewhere, 404);
    assert.equal((await s.api({ method: 'GET', url: `/api/recurring/${r.id}` })).json().status, 'active');
  });
});
