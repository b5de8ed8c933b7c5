// Recurring schedules run by the real job worker on a moved clock (pg-boss's TestClock, with the
// app's clock kept in step): one document per period on its day and never before, numbered in
// order and posted when autoRelease, with the template's lines and VAT; a worker that was down
// catches up in order; never twice for one period (the job run again, the period enqueued twice,
// a second worker, runs at once, and the database's unique index behind them); endDate; pause
// and resume; a moved nextDate; the month-end rule; a refused release or a deleted customer.
//
// One clock for the file, moved forward only: each test has its own stretch of the calendar and
// deletes its schedule at the end.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { TestClock } from 'pg-boss';
import {
  as,
  type Registered,
  register,
  sha256,
  startTestApp,
  type TestApp,
} from '../../../test/support/app.ts';
import { type MovedClock, movedClock } from '../../../test/support/moved-clock.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { JOB_SCHEMA } from '../../platform/jobs/grants.ts';
import { createJobs } from '../../platform/jobs/jobs.ts';
import { RECURRING_JOB_OPTIONS } from '../../platform/schedules/runs.ts';
import { type Sales, salesSetup } from './invoices.factories.ts';
import { createDocument } from './invoices.service.ts';
import { RECURRING_QUEUE, type RecurringJob, runRecurring } from './recurring.run.ts';

let t: TestApp;
let clock: TestClock;
before(async () => {
  clock = new TestClock(new Date('2021-12-20T08:00:00Z'));
  t = await startTestApp({ jobsClock: clock });
  t.clock.set('2021-12-20T08:00:00Z');
  moved = movedClock(t, clock, [RECURRING_QUEUE]);
});
after(() => t.close());

// Both clocks in step; the worker polls until no recurring job is due.
let moved: MovedClock;
const settled = () => moved.settled();
const jumpTo = (moment: string) => moved.jumpTo(moment);

/** Moves both clocks to `moment` and lets the worker run whatever came due. */
async function moveTo(moment: string) {
  await jumpTo(moment);
  await settled();
}

interface Doc {
  id: string;
  number: string;
  status: string;
  issueDate: string;
  dueDate: string;
  recurringId: string;
  entryId: string | null;
  subtotal: number;
  discountTotal: number;
  vatTotal: number;
  total: number;
  reference: string | null;
  lines: Array<Record<string, unknown>>;
}

async function docs(s: Sales, recurringId: string): Promise<Doc[]> {
  const res = await s.api({ method: 'GET', url: `/api/recurring/${recurringId}/invoices?limit=200` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().items;
}

async function schedule(s: Sales, id: string) {
  const res = await s.api({ method: 'GET', url: `/api/recurring/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function create(s: Sales, o: Record<string, unknown>) {
  const res = await s.api({
    method: 'POST',
    url: '/api/recurring',
    payload: {
      contactId: s.customerId,
      frequency: 'monthly',
      lines: [{ description: 'Retainer', quantity: 1, unitPrice: 1000 }],
      ...o,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function patch(s: Sales, id: string, payload: object) {
  const res = await s.api({ method: 'PATCH', url: `/api/recurring/${id}`, payload });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function remove(s: Sales, id: string) {
  assert.equal((await s.api({ method: 'DELETE', url: `/api/recurring/${id}` })).statusCode, 204);
}

/** Jobs of a schedule waiting for their time. */
async function queuedPeriods(recurringId: string): Promise<string[]> {
  const r = await sql<{ period: string }>`
    select data->>'period' as period from ${sql.raw(JOB_SCHEMA)}.job
     where name = ${RECURRING_QUEUE} and data->>'recurringId' = ${recurringId} and state = 'created'
     order by start_after`.execute(t.database.db);
  return r.rows.map((row) => row.period);
}

const TEMPLATE = [
  { description: 'Consulting', quantity: 3, unitPrice: 333.33 },
  { description: 'Discounted', quantity: 7, unitPrice: 14.99, discountRate: 12.5 },
  { description: 'Exported', quantity: 1, unitPrice: 500, vatRate: 0 },
];

const DAY_MS = 86_400_000;

/**
 * A new tenant with a customer. Its API calls sign in again when the clock has moved on by more
 * than a few weeks: sessions last 30 days of the app's clock.
 */
async function tenant(): Promise<{ b: Registered; s: Sales }> {
  const b = await register(t.app);
  const { customerId } = await salesSetup(t, b);
  let token = b.token;
  let since = t.clock.now().getTime();
  const api: Sales['api'] = async (opts) => {
    if (t.clock.now().getTime() - since > 20 * DAY_MS) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: b.email, password: sha256(b.password) },
      });
      assert.equal(res.statusCode, 200, res.body);
      token = res.json().accessToken;
      since = t.clock.now().getTime();
    }
    return as(t.app, token, b.companyId)(opts);
  };
  return { b, s: { api, customerId } };
}

describe('generation on a moved clock', () => {
  test('monthly on the 1st, January to April: one invoice a month on its day, numbered in order, posted', async () => {
    const { b, s } = await tenant();
    const r = await create(s, {
      startDate: '2022-01-01',
      paymentTermsDays: 30,
      reference: 'Retainer',
      autoRelease: true,
      lines: TEMPLATE,
    });
    await settled();
    assert.equal((await docs(s, r.id)).length, 0, 'nothing before the first run date');
    await moveTo('2021-12-31T23:50:00Z');
    assert.equal((await docs(s, r.id)).length, 0, 'nor ten minutes before it');
    await moveTo('2022-01-01T06:00:00Z');
    assert.equal((await docs(s, r.id)).length, 1);
    await moveTo('2022-01-31T22:00:00Z');
    assert.equal((await docs(s, r.id)).length, 1, 'one a month');
    for (const [month, n] of [
      ['02', 2],
      ['03', 3],
      ['04', 4],
    ] as const) {
      await moveTo(`2022-${month}-01T06:00:00Z`);
      assert.equal((await docs(s, r.id)).length, n, `on the 1st of ${month}`);
    }
    const made = await docs(s, r.id);
    assert.deepEqual(
      made.map((d) => [d.number, d.issueDate, d.dueDate, d.status, d.recurringId, d.reference]),
      [
        ['INV-0001', '2022-01-01', '2022-01-31', 'overdue', r.id, 'Retainer'],
        ['INV-0002', '2022-02-01', '2022-03-03', 'overdue', r.id, 'Retainer'],
        ['INV-0003', '2022-03-01', '2022-03-31', 'overdue', r.id, 'Retainer'],
        ['INV-0004', '2022-04-01', '2022-05-01', 'open', r.id, 'Retainer'],
      ],
    );
    // The template's lines, priced as a document of that day: VAT per line, rounded half-up.
    for (const d of made) {
      assert.deepEqual(
        d.lines.map((l) => [l.description, l.netAmount, l.discountAmount, l.vatRate, l.vatAmount]),
        [
          ['Consulting', 999.99, 0, 15, 150],
          ['Discounted', 91.81, 13.12, 15, 13.77],
          ['Exported', 500, 0, 0, 0],
        ],
      );
      assert.deepEqual([d.subtotal, d.discountTotal, d.vatTotal, d.total], [1591.8, 13.12, 163.77, 1755.57]);
    }
    // The same lines typed in as a document of that day price the same.
    const typed = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'invoice',
        issueDate: '2022-04-01',
        dueDate: '2022-05-01',
        lines: TEMPLATE,
      },
    });
    assert.equal(typed.statusCode, 201, typed.body);
    const strip = (lines: Array<Record<string, unknown>>) => lines.map(({ id: _id, ...rest }) => rest);
    assert.deepEqual(strip(typed.json().lines), strip(made[3]!.lines));
    // Posted, each by its own entry dated its issue date, by the system (no person or key).
    for (const d of made) {
      const entry = await s.api({ method: 'GET', url: `/api/ledger/journals/${d.entryId}` });
      assert.equal(entry.statusCode, 200, entry.body);
      assert.equal(entry.json().date, d.issueDate);
      assert.deepEqual(
        entry
          .json()
          .lines.map((l: { accountCode: string; debit: number; credit: number }) => [
            l.accountCode,
            l.debit,
            l.credit,
          ]),
        [
          ['1100', 1755.57, 0],
          ['4000', 0, 999.99],
          ['4000', 0, 91.81],
          ['4000', 0, 500],
          ['2100', 0, 163.77],
        ],
      );
    }
    const posters = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('journal_entries')
        .select(['created_by_type', 'created_by'])
        .where(
          'id',
          'in',
          made.map((d) => d.entryId!),
        )
        .execute(),
    );
    assert.deepEqual(
      posters,
      made.map(() => ({ created_by_type: 'system', created_by: null })),
    );
    const now = await schedule(s, r.id);
    assert.deepEqual(
      [now.nextDate, now.lastRunDate, now.documentCount, now.status, now.lastError],
      ['2022-05-01', '2022-04-01', 4, 'active', null],
    );
    await remove(s, r.id);
  });

  test('a worker down for months makes every missed period once, in order, when it comes back', async () => {
    await moveTo('2022-04-10T08:00:00Z');
    const { s } = await tenant();
    const r = await create(s, { startDate: '2022-05-10' });
    await t.deps.jobs.stopWorking();
    try {
      await jumpTo('2022-09-15T08:00:00Z');
      await clock.tick(5000);
      assert.equal((await docs(s, r.id)).length, 0, 'no worker, no documents');
    } finally {
      // The worker comes back.
      await t.deps.jobs.register(RECURRING_QUEUE, runRecurring(t.deps), RECURRING_JOB_OPTIONS);
    }
    await settled();
    const made = await docs(s, r.id);
    assert.deepEqual(
      made.map((d) => [d.number, d.issueDate, d.status, d.entryId]),
      [
        ['INV-0001', '2022-05-10', 'draft', null],
        ['INV-0002', '2022-06-10', 'draft', null],
        ['INV-0003', '2022-07-10', 'draft', null],
        ['INV-0004', '2022-08-10', 'draft', null],
        ['INV-0005', '2022-09-10', 'draft', null],
      ],
      'drafts without autoRelease',
    );
    assert.equal((await schedule(s, r.id)).nextDate, '2022-10-10');
    await remove(s, r.id);
  });

  test('never twice for one period: enqueued twice, two workers, the job run again, runs at once', async () => {
    await moveTo('2022-09-20T08:00:00Z');
    const { b, s } = await tenant();
    const r = await create(s, { startDate: '2022-10-01' });
    const job: RecurringJob = { tenantId: b.tenantId, recurringId: r.id, period: '2022-10-01' };
    const runAt = new Date('2022-10-01T00:00:00Z');
    const run = runRecurring(t.deps);
    // A run before its day by this process's clock (clocks apart) makes nothing and is retried.
    await assert.rejects(
      run({ id: crypto.randomUUID(), name: RECURRING_QUEUE, data: job, attempt: 1 }),
      /the run for 2022-10-01 came on 2022-09-20/,
    );
    assert.equal((await docs(s, r.id)).length, 0);
    // The period enqueued again: with its key the queue keeps one; without one, a second job waits.
    const key = `${b.tenantId}:${r.id}:2022-10-01`;
    assert.equal(
      await t.deps.jobs.send(RECURRING_QUEUE, job, { startAfter: runAt, singletonKey: key }),
      null,
    );
    assert.ok(await t.deps.jobs.send(RECURRING_QUEUE, job, { startAfter: runAt }));
    assert.deepEqual(await queuedPeriods(r.id), ['2022-10-01', '2022-10-01']);
    // A second worker on the same queue.
    const second = createJobs({
      database: t.database,
      log: { error() {}, warn() {}, info() {} },
      clock,
      pollingIntervalSeconds: 1,
    });
    await second.register(RECURRING_QUEUE, runRecurring(t.deps), RECURRING_JOB_OPTIONS);
    await second.start();
    try {
      await moveTo('2022-10-01T06:00:00Z');
      assert.deepEqual(
        (await docs(s, r.id)).map((d) => d.issueDate),
        ['2022-10-01'],
      );
      // The job run again (a retry after its commit, an expired run taken up again): nothing.
      await run({ id: crypto.randomUUID(), name: RECURRING_QUEUE, data: job, attempt: 2 });
      assert.equal((await docs(s, r.id)).length, 1);
      assert.equal((await schedule(s, r.id)).nextDate, '2022-11-01');
      // Four runs of the next period at once (the app's clock on its day; pg-boss's not yet).
      t.clock.set('2022-11-01T06:00:00Z');
      const november = { ...job, period: '2022-11-01' };
      await Promise.all(
        [1, 2, 3, 4].map((i) =>
          run({ id: crypto.randomUUID(), name: RECURRING_QUEUE, data: november, attempt: i }),
        ),
      );
      assert.deepEqual(
        (await docs(s, r.id)).map((d) => d.issueDate),
        ['2022-10-01', '2022-11-01'],
      );
      // The queued job for November comes due and finds it made.
      await moveTo('2022-11-01T06:30:00Z');
      assert.equal((await docs(s, r.id)).length, 2);
      assert.equal((await schedule(s, r.id)).nextDate, '2022-12-01');
    } finally {
      await second.stop();
    }
    // Behind the code, the database: a second document for a made period is refused.
    await assert.rejects(
      withTenant(t.database.db, b.tenantId, (tx) =>
        createDocument(
          {
            db: tx,
            tenantId: b.tenantId,
            companyId: b.companyId,
            deps: t.deps,
            principal: { type: 'system' },
          },
          {
            contactId: s.customerId,
            documentType: 'invoice',
            issueDate: '2022-10-01',
            dueDate: '2022-10-31',
            lines: [{ description: 'Again', quantity: 1, unitPrice: 1 }],
          },
          { recurringId: r.id, period: '2022-10-01' },
        ),
      ),
      /invoices_recurring_period|duplicate key/,
    );
    assert.deepEqual(
      (await docs(s, r.id)).map((d) => d.number),
      ['INV-0001', 'INV-0002'],
    );
    await remove(s, r.id);
  });

  test('endDate stops it; an ended schedule given a later end goes on from today', async () => {
    await moveTo('2022-11-20T08:00:00Z');
    const { s } = await tenant();
    const r = await create(s, { frequency: 'weekly', startDate: '2022-12-06', endDate: '2022-12-27' });
    await moveTo('2022-12-27T06:00:00Z');
    assert.deepEqual(
      (await docs(s, r.id)).map((d) => d.issueDate),
      ['2022-12-06', '2022-12-13', '2022-12-20', '2022-12-27'],
    );
    await moveTo('2023-01-20T08:00:00Z');
    assert.equal((await docs(s, r.id)).length, 4, 'nothing after endDate');
    const ended = await schedule(s, r.id);
    assert.deepEqual([ended.status, ended.nextDate, ended.lastRunDate], ['ended', null, '2022-12-27']);
    assert.deepEqual(await queuedPeriods(r.id), [], 'no job waits for an ended schedule');
    // Extended: the Mondays passed while it had ended are not made; it goes on from the next.
    const extended = await patch(s, r.id, { endDate: '2023-02-14' });
    assert.deepEqual([extended.status, extended.nextDate], ['active', '2023-01-24']);
    await moveTo('2023-02-20T08:00:00Z');
    assert.deepEqual(
      (await docs(s, r.id)).map((d) => d.issueDate),
      [
        '2022-12-06',
        '2022-12-13',
        '2022-12-20',
        '2022-12-27',
        '2023-01-24',
        '2023-01-31',
        '2023-02-07',
        '2023-02-14',
      ],
    );
    assert.equal((await schedule(s, r.id)).status, 'ended');
    await remove(s, r.id);
  });

  test('pause stops it; resume goes on from the next run date, without duplicates', async () => {
    await moveTo('2023-02-25T08:00:00Z');
    const { s } = await tenant();
    const r = await create(s, { startDate: '2023-03-05' });
    await moveTo('2023-03-05T06:00:00Z');
    assert.equal((await docs(s, r.id)).length, 1);
    await moveTo('2023-03-10T08:00:00Z');
    assert.equal((await patch(s, r.id, { active: false })).status, 'paused');
    await moveTo('2023-04-06T08:00:00Z');
    assert.equal((await docs(s, r.id)).length, 1, 'paused: the April run made nothing');
    assert.deepEqual(
      [(await schedule(s, r.id)).status, (await schedule(s, r.id)).nextDate],
      ['paused', '2023-04-05'],
    );
    // Resumed after its April date: April (passed while paused) is not made; May is next.
    assert.equal((await patch(s, r.id, { active: true })).nextDate, '2023-05-05');
    await moveTo('2023-05-05T06:00:00Z');
    assert.equal((await docs(s, r.id)).length, 2);
    // Paused and resumed before the next date: nothing moves, and one job waits for it.
    await moveTo('2023-05-10T08:00:00Z');
    await patch(s, r.id, { active: false });
    assert.equal((await patch(s, r.id, { active: true })).nextDate, '2023-06-05');
    assert.deepEqual(await queuedPeriods(r.id), ['2023-06-05']);
    await moveTo('2023-06-05T06:00:00Z');
    assert.deepEqual(
      (await docs(s, r.id)).map((d) => [d.number, d.issueDate]),
      [
        ['INV-0001', '2023-03-05'],
        ['INV-0002', '2023-05-05'],
        ['INV-0003', '2023-06-05'],
      ],
    );
    await remove(s, r.id);
  });

  test('a moved nextDate re-plans: the old date makes nothing, the new one does, and the series follows it', async () => {
    await moveTo('2023-06-10T08:00:00Z');
    const { s } = await tenant();
    const r = await create(s, { startDate: '2023-07-01' });
    assert.equal((await patch(s, r.id, { nextDate: '2023-07-15' })).nextDate, '2023-07-15');
    await moveTo('2023-07-01T06:00:00Z');
    assert.equal((await docs(s, r.id)).length, 0, 'the job for the 1st found the schedule changed');
    await moveTo('2023-07-15T06:00:00Z');
    assert.deepEqual(
      (await docs(s, r.id)).map((d) => d.issueDate),
      ['2023-07-15'],
    );
    assert.equal((await schedule(s, r.id)).nextDate, '2023-08-15', 'the series counts from the new date');
    // A period made is made once: nextDate cannot go back to it, nor can startDate move now.
    const back = await s.api({
      method: 'PATCH',
      url: `/api/recurring/${r.id}`,
      payload: { nextDate: '2023-07-15' },
    });
    assert.equal(assertProblem(back, 400).field, 'nextDate');
    const start = await s.api({
      method: 'PATCH',
      url: `/api/recurring/${r.id}`,
      payload: { startDate: '2023-07-02' },
    });
    assert.equal(assertProblem(start, 400).field, 'startDate');
    await patch(s, r.id, { nextDate: '2023-08-01' });
    await moveTo('2023-08-01T06:00:00Z');
    assert.deepEqual(
      (await docs(s, r.id)).map((d) => d.issueDate),
      ['2023-07-15', '2023-08-01'],
    );
    assert.equal((await schedule(s, r.id)).nextDate, '2023-09-01');
    await remove(s, r.id);
  });

  test('month ends: the 31st, then the 30th, the 29th in a leap February, and the 31st again', async () => {
    await moveTo('2023-08-05T08:00:00Z');
    const { s } = await tenant();
    const r = await create(s, { startDate: '2023-10-31' });
    await moveTo('2024-05-31T06:00:00Z');
    assert.deepEqual(
      (await docs(s, r.id)).map((d) => [d.number, d.issueDate]),
      [
        ['INV-0001', '2023-10-31'],
        ['INV-0002', '2023-11-30'],
        ['INV-0003', '2023-12-31'],
        ['INV-0004', '2024-01-31'],
        ['INV-0005', '2024-02-29'],
        ['INV-0006', '2024-03-31'],
        ['INV-0007', '2024-04-30'],
        ['INV-0008', '2024-05-31'],
      ],
    );
    assert.equal((await schedule(s, r.id)).nextDate, '2024-06-30');
    await remove(s, r.id);
  });

  test('a release the lock date refuses leaves that document a draft, says why, and the next goes on', async () => {
    await moveTo('2024-06-05T08:00:00Z');
    const { s } = await tenant();
    const lock = await s.api({
      method: 'PATCH',
      url: '/api/ledger/settings',
      payload: { lockDate: '2024-06-30' },
    });
    assert.equal(lock.statusCode, 200, lock.body);
    const r = await create(s, { startDate: '2024-06-15', autoRelease: true });
    await moveTo('2024-06-15T06:00:00Z');
    const [june] = await docs(s, r.id);
    assert.deepEqual([june!.number, june!.status, june!.entryId], ['INV-0001', 'draft', null]);
    const after = await schedule(s, r.id);
    assert.match(after.lastError, /^INV-0001 was left a draft: .*locked up to 2024-06-30/);
    assert.deepEqual([after.status, after.nextDate], ['active', '2024-07-15']);
    await moveTo('2024-07-15T06:00:00Z');
    const july = (await docs(s, r.id))[1]!;
    assert.deepEqual([july.number, july.status], ['INV-0002', 'open']);
    assert.ok(july.entryId);
    assert.equal((await schedule(s, r.id)).lastError, null);
    await remove(s, r.id);
  });

  test('a customer deleted since: nothing is made, the schedule pauses and says why', async () => {
    await moveTo('2024-07-20T08:00:00Z');
    const { s } = await tenant();
    const r = await create(s, { startDate: '2024-08-01' });
    const gone = await s.api({ method: 'DELETE', url: `/api/contacts/${s.customerId}` });
    assert.equal(gone.statusCode, 204, gone.body);
    await moveTo('2024-08-01T06:00:00Z');
    assert.equal((await docs(s, r.id)).length, 0);
    const after = await schedule(s, r.id);
    assert.deepEqual([after.status, after.nextDate], ['paused', '2024-08-01']);
    assert.match(after.lastError, /^The document for 2024-08-01 was not made: contactId: no such contact/);
    await remove(s, r.id);
  });
});
