// Recurring bills run by the real job worker on a moved clock (as recurring invoices are tested):
// one bill per run date, on its day and never before, with the template's lines, codes and VAT,
// waiting for approval; the end date stops them; a run the rules refuse pauses the template.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
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
import { fetched, type Sales } from '../invoices/invoices.factories.ts';
import { created, type Purchases, purchasesSetup } from './bills.factories.ts';
import { RECURRING_BILL_QUEUE } from './bills.recurring.ts';

let t: TestApp;
let clock: TestClock;
let moved: MovedClock;
before(async () => {
  clock = new TestClock(new Date('2026-03-01T08:00:00Z'));
  t = await startTestApp({ jobsClock: clock });
  t.clock.set('2026-03-01T08:00:00Z');
  moved = movedClock(t, clock, [RECURRING_BILL_QUEUE]);
});
after(() => t.close());

async function moveTo(moment: string) {
  await moved.jumpTo(moment);
  await moved.settled();
}

const sales = (p: Purchases): Sales => ({ api: p.api, customerId: p.supplierId });

/** Signed in again on the moved clock (an access token lasts an hour of it). */
async function fresh(b: Registered, p: Purchases): Promise<Purchases> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: b.email, password: sha256(b.password) },
  });
  assert.equal(res.statusCode, 200, res.body);
  return { ...p, api: as(t.app, res.json().accessToken, b.companyId) };
}

async function runs(p: Purchases, templateId: string) {
  const list = await fetched(sales(p), `/api/bills?contactId=${p.supplierId}&sort=date&limit=200`);
  return list.items.filter((b: { recurringFromId: string | null }) => b.recurringFromId === templateId);
}

test('monthly rent: a bill on each run date up to the end date, awaiting approval, with the template’s VAT', async () => {
  const b = await register(t.app, { plan: 'business' });
  const p = await purchasesSetup(t, b);
  // 1,000.00 standard (VAT 150.00) + 200.00 exempt = 1,350.00; due 30 days after issue.
  const template = await created(p, {
    billNumber: 'RENT',
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    recurring: true,
    frequency: 'monthly',
    nextDate: '2026-04-01',
    endDate: '2026-05-15',
  });
  assert.deepEqual(
    [template.recurring, template.recurrenceActive, template.nextDate],
    [true, true, '2026-04-01'],
  );
  // The day before: nothing yet.
  await moveTo('2026-03-31T20:00:00Z');
  assert.equal((await runs(await fresh(b, p), template.id)).length, 0);
  await moveTo('2026-04-01T08:00:00Z');
  let made = await runs(await fresh(b, p), template.id);
  assert.deepEqual(
    made.map((x: Record<string, unknown>) => [
      x.billNumber,
      x.status,
      x.issueDate,
      x.dueDate,
      x.vatAmount,
      x.amount,
    ]),
    [['RENT-2026-04-01', 'awaiting_approval', '2026-04-01', '2026-05-01', 150, 1350]],
  );
  assert.equal(made[0].entryId, null); // nothing posts until a person approves it
  // May's run; June's is after the end date (2026-05-15): none.
  await moveTo('2026-06-10T08:00:00Z');
  const later = await fresh(b, p);
  made = await runs(later, template.id);
  assert.deepEqual(
    made.map((x: { billNumber: string }) => x.billNumber),
    ['RENT-2026-04-01', 'RENT-2026-05-01'],
  );
  const after = await fetched(sales(later), `/api/bills/${template.id}`);
  assert.equal(after.nextDate, '2026-06-01');
});

test('a run the rules refuse (the supplier is now a customer) makes nothing and pauses the template with the reason', async () => {
  await moved.jumpTo('2026-06-11T08:00:00Z');
  const b = await register(t.app, { plan: 'business' });
  const p = await purchasesSetup(t, b);
  const template = await created(p, {
    billNumber: 'LEASE',
    issueDate: '2026-06-11',
    dueDate: '2026-06-30',
    recurring: true,
    frequency: 'weekly',
    nextDate: '2026-06-18',
  });
  const changed = await p.api({
    method: 'PATCH',
    url: `/api/contacts/${p.supplierId}`,
    payload: { contactType: 'CUSTOMER' },
  });
  assert.equal(changed.statusCode, 200, changed.body);
  await moveTo('2026-06-18T08:00:00Z');
  const later = await fresh(b, p);
  const after = await fetched(sales(later), `/api/bills/${template.id}`);
  assert.equal(after.recurrenceActive, false);
  assert.match(after.recurrenceError, /The bill for 2026-06-18 was not made: .*not a supplier/);
  assert.equal((await runs(later, template.id)).length, 0);
  // Put right and resumed from a new date: the run is made on it, the error cleared.
  const back = await later.api({
    method: 'PATCH',
    url: `/api/contacts/${p.supplierId}`,
    payload: { contactType: 'SUPPLIER' },
  });
  assert.equal(back.statusCode, 200, back.body);
  const resumed = await later.api({
    method: 'PATCH',
    url: `/api/bills/${template.id}`,
    payload: { recurrenceActive: true, nextDate: '2026-06-20' },
  });
  assert.equal(resumed.statusCode, 200, resumed.body);
  assert.deepEqual([resumed.json().recurrenceActive, resumed.json().recurrenceError], [true, null]);
  await moveTo('2026-06-20T08:00:00Z');
  const last = await fresh(b, p);
  assert.deepEqual(
    (await runs(last, template.id)).map((x: { billNumber: string }) => x.billNumber),
    ['LEASE-2026-06-20'],
  );
  // Weekly from the new anchor: the next is a week on.
  assert.equal((await fetched(sales(last), `/api/bills/${template.id}`)).nextDate, '2026-06-27');
  // An approved bill's notes no longer change.
  const approvedOne = await last.api({ method: 'POST', url: `/api/bills/${template.id}/approve` });
  assert.equal(approvedOne.statusCode, 200, approvedOne.body);
  const late = await last.api({ method: 'PATCH', url: `/api/bills/${template.id}`, payload: { notes: 'x' } });
  assert.equal(late.json().code, 'NOT_A_DRAFT');
});
