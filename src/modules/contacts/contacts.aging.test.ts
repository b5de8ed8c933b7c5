// Aged debtors and creditors and creditUsed, from ledger postings with worked figures.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { bill, invoice, payment, post, receipt, seedChart } from './contacts.factories.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let second: string;
const c: Record<'alpha' | 'bravo' | 'charlie' | 'delta' | 'edges', string> = {
  alpha: '',
  bravo: '',
  charlie: '',
  delta: '',
  edges: '',
};

async function contact(name: string, contactType = 'CUSTOMER'): Promise<string> {
  const res = await api({ method: 'POST', url: '/api/contacts', payload: { name, contactType } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

interface Row {
  contactId: string | null;
  contactName: string;
  current: number;
  days30: number;
  days60: number;
  days90: number;
  days120: number;
  older: number;
  unapplied: number;
  total: number;
  overdue: number;
}

async function aged(kind: 'debtors' | 'creditors', query = ''): Promise<Row[]> {
  const res = await api({ method: 'GET', url: `/api/contacts/aged-${kind}${query ? `?${query}` : ''}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const row = (rows: Row[], id: string | null) => rows.find((r) => r.contactId === id);
const buckets = (r: Row | undefined) =>
  r && [r.current, r.days30, r.days60, r.days90, r.days120, r.older, r.total, r.overdue];

before(async () => {
  // Today is 2025-06-30 for this file (the default asOf). The clock does not move: tokens last
  // 15 minutes of it.
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2025-06-30T10:00:00.000Z');
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token);
  const res = await api({ method: 'POST', url: '/api/companies', payload: { name: 'Second Co' } });
  assert.equal(res.statusCode, 201, res.body);
  second = res.json().id;
  // Chart seeding at company creation lands on another branch; seeding again is harmless.
  await seedChart(t, a.tenantId, a.companyId);
  await seedChart(t, a.tenantId, second);

  c.alpha = await contact('Alpha Traders');
  c.bravo = await contact('Bravo Stores');
  c.charlie = await contact('Charlie Cafe');
  c.delta = await contact('Delta Supplies', 'SUPPLIER');
  c.edges = await contact('Edge Cases CC');
  const co = a.companyId;
  const T = a.tenantId;

  // Alpha, company 1
  await invoice(t, T, co, c.alpha, { date: '2025-06-20', due: '2025-07-20', amount: '1150.00' }); // current
  const a2 = await invoice(t, T, co, c.alpha, { date: '2025-05-01', due: '2025-06-15', amount: '2300.00' });
  await receipt(t, T, co, c.alpha, { date: '2025-06-10', amount: '800.00', item: a2 }); // 1500 left, 15 days
  await invoice(t, T, co, c.alpha, { date: '2025-03-01', due: '2025-04-20', amount: '575.00' }); // 71 days
  await invoice(t, T, co, c.alpha, { date: '2025-05-30', amount: '100.00' }); // no due date: 31 days
  // Alpha, company 2
  await invoice(t, T, second, c.alpha, { date: '2025-06-25', due: '2025-07-25', amount: '200.00' });

  // Bravo: one item paid in part after 2025-06-30, one settled on 2025-06-20
  const b1 = await invoice(t, T, co, c.bravo, { date: '2025-04-15', due: '2025-05-15', amount: '4000.00' });
  await receipt(t, T, co, c.bravo, { date: '2025-07-05', amount: '1000.00', item: b1 });
  const b2 = await invoice(t, T, co, c.bravo, { date: '2025-05-10', due: '2025-05-31', amount: '999.99' });
  await receipt(t, T, co, c.bravo, { date: '2025-06-20', amount: '999.99', item: b2 });

  // Charlie: invoiced and paid in full (no row)
  const c1 = await invoice(t, T, co, c.charlie, { date: '2025-06-01', due: '2025-06-15', amount: '333.33' });
  await receipt(t, T, co, c.charlie, { date: '2025-06-14', amount: '333.33', item: c1 });

  // Edges: due 0, 1, 30, 31, 60 and 61 days before 2025-06-30
  const dues: Array<[string, string]> = [
    ['2025-06-30', '1.00'],
    ['2025-06-29', '2.00'],
    ['2025-05-31', '4.00'],
    ['2025-05-30', '8.00'],
    ['2025-05-01', '16.00'],
    ['2025-04-30', '32.00'],
  ];
  for (const [due, amount] of dues) {
    await invoice(t, T, co, c.edges, { date: '2025-04-01', due, amount });
  }

  // Posted without a contact (an opening balance on debtors control)
  await invoice(t, T, co, undefined, { date: '2025-01-31', amount: '50.00' });

  // Delta, a supplier: a bill not yet due, and one 60 days overdue paid in part
  await bill(t, T, co, c.delta, {
    date: '2025-06-01',
    due: '2025-06-30',
    net: '5000.00',
    vat: '750.00',
    total: '5750.00',
  });
  const d2 = await bill(t, T, co, c.delta, {
    date: '2025-04-01',
    due: '2025-05-01',
    net: '1043.48',
    vat: '156.52',
    total: '1200.00',
  });
  await payment(t, T, co, c.delta, { date: '2025-06-15', amount: '200.00', item: d2 });
});
after(() => t.close());

describe('aged debtors', () => {
  test('as of today (the default): each bucket, partial payments, settled items left out', async () => {
    const rows = await aged('debtors');
    assert.deepEqual(await aged('debtors', 'asOf=2025-06-30'), rows);
    // Alpha: 1150 + 200 current (two companies), 1500 (15 days), 100 (31 days, no due date), 575 (71 days)
    assert.deepEqual(row(rows, c.alpha), {
      contactId: c.alpha,
      contactName: 'Alpha Traders',
      current: 1350,
      days30: 1500,
      days60: 100,
      days90: 575,
      days120: 0,
      older: 0,
      unapplied: 0,
      total: 3525,
      overdue: 2175,
    });
    // Bravo: the 2025-07-05 payment is after asOf; the settled 999.99 is not there
    assert.deepEqual(buckets(row(rows, c.bravo)), [0, 0, 4000, 0, 0, 0, 4000, 4000]);
    // Boundaries: 0 days is current; 1 and 30 are days30; 31 and 60 days60; 61 days90
    assert.deepEqual(buckets(row(rows, c.edges)), [1, 6, 24, 32, 0, 0, 63, 62]);
    // No due date: it ages from 2025-01-31, 150 days before 2025-06-30 (older than 120)
    assert.deepEqual(buckets(row(rows, null)), [0, 0, 0, 0, 0, 50, 50, 50]);
    assert.equal(row(rows, null)?.contactName, '(no contact)');
    assert.equal(row(rows, c.charlie), undefined, 'a contact whose items are settled has no row');
    assert.equal(row(rows, c.delta), undefined, 'creditors are not debtors');
    // By name; the row without a contact last
    assert.deepEqual(
      rows.map((r) => r.contactName),
      ['Alpha Traders', 'Bravo Stores', 'Edge Cases CC', '(no contact)'],
    );
    for (const r of rows) for (const v of buckets(r)!) assert.equal(typeof v, 'number');
  });

  test('asOf before a payment counts the item as it stood then', async () => {
    const rows = await aged('debtors', 'asOf=2025-06-01');
    // Alpha: the 06-20 invoice and company 2's do not exist yet; the 2300 was not yet paid
    // (due 06-15: current); 575 is 42 days past due; the 100 (05-30, no due date) is 2 days.
    assert.deepEqual(buckets(row(rows, c.alpha)), [2300, 100, 575, 0, 0, 0, 2975, 675]);
    // Bravo: the 999.99 settled on 06-20 was open and 1 day past due; the 4000 17 days.
    assert.deepEqual(buckets(row(rows, c.bravo)), [0, 4999.99, 0, 0, 0, 0, 4999.99, 4999.99]);
    // Charlie's invoice was open then and not yet due.
    assert.deepEqual(buckets(row(rows, c.charlie)), [333.33, 0, 0, 0, 0, 0, 333.33, 0]);
  });

  test('asOf after a payment: the paid part is gone', async () => {
    const rows = await aged('debtors', 'asOf=2025-07-10');
    assert.deepEqual(buckets(row(rows, c.bravo)), [0, 0, 3000, 0, 0, 0, 3000, 3000]);
    assert.deepEqual(buckets(row(rows, c.alpha)), [1350, 1500, 100, 575, 0, 0, 3525, 2175]);
  });

  test('before anything was posted: no rows', async () => {
    assert.deepEqual(await aged('debtors', 'asOf=2024-12-31'), []);
  });

  test('companyId limits the report to one company', async () => {
    const first = await aged('debtors', `companyId=${a.companyId}&asOf=2025-06-30`);
    assert.deepEqual(buckets(row(first, c.alpha)), [1150, 1500, 100, 575, 0, 0, 3325, 2175]);
    const other = await aged('debtors', `companyId=${second}&asOf=2025-06-30`);
    assert.deepEqual(other, [
      {
        contactId: c.alpha,
        contactName: 'Alpha Traders',
        current: 200,
        days30: 0,
        days60: 0,
        days90: 0,
        days120: 0,
        older: 0,
        unapplied: 0,
        total: 200,
        overdue: 0,
      },
    ]);
  });

  test('an unparseable asOf is a 400 naming asOf; a bad or foreign companyId is 400 / 404', async () => {
    for (const bad of ['yesterday', '2025-02-30', '2025-6-1', '']) {
      const res = await api({ method: 'GET', url: `/api/contacts/aged-debtors?asOf=${bad}` });
      assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
      assert.match(res.json().detail, /\basOf\b/);
    }
    const notUuid = await api({ method: 'GET', url: '/api/contacts/aged-creditors?companyId=abc' });
    assert.equal(notUuid.statusCode, 400);
    assert.match(notUuid.json().detail, /companyId/);
    const b = await register(t.app);
    const foreign = await api({ method: 'GET', url: `/api/contacts/aged-debtors?companyId=${b.companyId}` });
    assert.equal(foreign.statusCode, 404, foreign.body);
  });

  test('another tenant sees none of it', async () => {
    const b = await register(t.app);
    const res = await as(
      t.app,
      b.token,
    )({ method: 'GET', url: '/api/contacts/aged-debtors?asOf=2025-06-30' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), []);
  });
});

describe('aged creditors', () => {
  test('amounts owed by us read positive, aged by due date', async () => {
    const rows = await aged('creditors', 'asOf=2025-06-30');
    // 5750 due today (current); 1200 - 200 = 1000, due 2025-05-01: 60 days (days60)
    assert.deepEqual(rows, [
      {
        contactId: c.delta,
        contactName: 'Delta Supplies',
        current: 5750,
        days30: 0,
        days60: 1000,
        days90: 0,
        days120: 0,
        older: 0,
        unapplied: 0,
        total: 6750,
        overdue: 1000,
      },
    ]);
    // Before the payment and before the second bill
    assert.deepEqual(
      buckets(row(await aged('creditors', 'asOf=2025-05-02'), c.delta)),
      [0, 1200, 0, 0, 0, 0, 1200, 1200],
    );
  });
});

describe('creditUsed and deleting a contact with open items', () => {
  test('creditUsed is what the contact owes now on the debtors control accounts of every company', async () => {
    const get = async (id: string) => (await api({ method: 'GET', url: `/api/contacts/${id}` })).json();
    // Alpha: 1150 + 1500 + 575 + 100 (company 1) + 200 (company 2); Bravo after the 07-05 payment
    assert.equal((await get(c.alpha)).creditUsed, 3525);
    assert.equal((await get(c.bravo)).creditUsed, 3000);
    assert.equal((await get(c.charlie)).creditUsed, 0);
    assert.equal((await get(c.delta)).creditUsed, 0, 'what we owe a supplier is not credit they use');
    const listed = (await api({ method: 'GET', url: '/api/contacts?limit=200' })).json();
    const used = Object.fromEntries(
      listed.items.map((i: { name: string; creditUsed: number }) => [i.name, i.creditUsed]),
    );
    assert.deepEqual(used, {
      'Alpha Traders': 3525,
      'Bravo Stores': 3000,
      'Charlie Cafe': 0,
      'Delta Supplies': 0,
      'Edge Cases CC': 63,
    });
  });

  test('a contact with open items cannot be deleted (409); a settled one can', async () => {
    for (const id of [c.alpha, c.delta]) {
      const res = await api({ method: 'DELETE', url: `/api/contacts/${id}` });
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json().code, 'CONTACT_HAS_OPEN_ITEMS');
    }
    assert.equal((await api({ method: 'DELETE', url: `/api/contacts/${c.charlie}` })).statusCode, 204);
    // The ledger still names the deleted contact: its history reads as before.
    const then = await aged('debtors', 'asOf=2025-06-01');
    assert.deepEqual(buckets(row(then, c.charlie)), [333.33, 0, 0, 0, 0, 0, 333.33, 0]);
    assert.equal(row(then, c.charlie)?.contactName, 'Charlie Cafe');
  });

  test('a ledger line cannot name a contact that is not one of the tenant', async () => {
    await assert.rejects(
      post(t, a.tenantId, a.companyId, '2025-06-30', [
        { account: 'debtors_control', debit: '10.00', contactId: crypto.randomUUID() },
        { account: 'sales', credit: '10.00' },
      ]),
      /foreign key/,
    );
  });
});

describe('routes', () => {
  test('/api/contacts/aged-debtors is not taken for /api/contacts/{id}', async () => {
    for (const path of ['aged-debtors', 'aged-creditors']) {
      const res = await api({ method: 'GET', url: `/api/contacts/${path}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(Array.isArray(res.json()));
    }
  });
});

describe('aged buckets past 60 days (issue 14): days90 61–90, days120 91–120, older past 120', () => {
  test('invoices 10, 45, 75, 100 and 150 days past due each in its bucket, in both routes and the files', async () => {
    // A tenant of its own, so the rows above are not disturbed.
    const b = await register(t.app, { plan: 'business' });
    await seedChart(t, b.tenantId, b.companyId);
    const bApi = as(t.app, b.token);
    const res = await bApi({ method: 'POST', url: '/api/contacts', payload: { name: 'Aging Five CC' } });
    assert.equal(res.statusCode, 201, res.body);
    const five = res.json().id as string;
    const edge = await bApi({ method: 'POST', url: '/api/contacts', payload: { name: 'Boundary Bakery' } });
    const edges = edge.json().id as string;
    const T = b.tenantId;
    const co = b.companyId;
    // asOf 2025-06-30. Due dates counted back by hand: 10 days → 2025-06-20; 45 → 2025-05-16
    // (30 to 05-31, 15 more); 75 → 2025-04-16 (30 more, May has 31 days: 05-16 → 04-16 is 30);
    // 100 → 2025-03-22 (9 days to 03-31 + 30 April + 31 May + 30 June); 150 → 2025-01-31
    // (0 days of January left + 28 February + 31 + 30 + 31 + 30).
    const five_: Array<[string, string]> = [
      ['2025-07-15', '50.00'], // not yet due: current
      ['2025-06-20', '100.00'], // 10 days: days30
      ['2025-05-16', '200.00'], // 45 days: days60
      ['2025-04-16', '400.00'], // 75 days: days90
      ['2025-03-22', '800.00'], // 100 days: days120
      ['2025-01-31', '1600.00'], // 150 days: older
    ];
    for (const [due, amount] of five_) await invoice(t, T, co, five, { date: '2025-01-01', due, amount });
    // Boundaries: 90 days (2025-04-01) is days90; 91 (2025-03-31) and 120 (2025-03-02) are
    // days120; 121 (2025-03-01) is older.
    const boundaries: Array<[string, string]> = [
      ['2025-04-01', '1.00'],
      ['2025-03-31', '2.00'],
      ['2025-03-02', '4.00'],
      ['2025-03-01', '8.00'],
    ];
    for (const [due, amount] of boundaries)
      await invoice(t, T, co, edges, { date: '2025-01-01', due, amount });

    // Totals by hand: Aging Five total = 50 + 100 + 200 + 400 + 800 + 1600 = 3150;
    // overdue = 100 + 200 + 400 + 800 + 1600 = 3100 (everything but the 50 not yet due).
    // Boundary Bakery: days90 1, days120 2 + 4 = 6, older 8; total 15, overdue 15.
    const rowsByName = [
      {
        contactId: edges,
        contactName: 'Boundary Bakery',
        current: 0,
        days30: 0,
        days60: 0,
        days90: 1,
        days120: 6,
        older: 8,
        unapplied: 0,
        total: 15,
        overdue: 15,
      },
      {
        contactId: five,
        contactName: 'Aging Five CC',
        current: 50,
        days30: 100,
        days60: 200,
        days90: 400,
        days120: 800,
        older: 1600,
        unapplied: 0,
        total: 3150,
        overdue: 3100,
      },
    ];
    const expected = [rowsByName[1], rowsByName[0]]; // by name: Aging Five CC, Boundary Bakery
    const tenantWide = await bApi({ method: 'GET', url: '/api/contacts/aged-debtors?asOf=2025-06-30' });
    assert.equal(tenantWide.statusCode, 200, tenantWide.body);
    assert.deepEqual(tenantWide.json(), expected);
    const company = as(t.app, b.token, b.companyId);
    const scoped = await company({ method: 'GET', url: '/api/reports/aged-debtors?asOf=2025-06-30' });
    assert.equal(scoped.statusCode, 200, scoped.body);
    assert.deepEqual(scoped.json(), expected);

    // The CSV has the six buckets and the total; its total row sums the columns:
    // current 50; 1-30 100; 31-60 200; 61-90 400 + 1 = 401; 91-120 800 + 6 = 806;
    // over 120 1600 + 8 = 1608; total 3150 + 15 = 3165.
    const csv = await company({ method: 'GET', url: '/api/reports/aged-debtors?asOf=2025-06-30&format=csv' });
    assert.equal(csv.statusCode, 200, csv.body);
    const lines = csv.body.trim().split('\r\n');
    assert.equal(
      lines[0],
      'Contact,Current,1-30 days,31-60 days,61-90 days,91-120 days,Over 120 days,Unapplied credit,Total',
    );
    assert.equal(lines[1], 'Aging Five CC,50.00,100.00,200.00,400.00,800.00,1600.00,0.00,3150.00');
    assert.equal(lines.at(-1), 'Total,50.00,100.00,200.00,401.00,806.00,1608.00,0.00,3165.00');
    const pdf = await company({ method: 'GET', url: '/api/reports/aged-debtors?asOf=2025-06-30&format=pdf' });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
  });

  test('aged creditors use the same buckets: a bill 100 days past due is days120', async () => {
    const b = await register(t.app, { plan: 'business' });
    await seedChart(t, b.tenantId, b.companyId);
    const bApi = as(t.app, b.token);
    const res = await bApi({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Old Supplier', contactType: 'SUPPLIER' },
    });
    const supplier = res.json().id as string;
    // 1000 net + 150 VAT = 1150, due 2025-03-22: 100 days before 2025-06-30.
    await bill(t, b.tenantId, b.companyId, supplier, {
      date: '2025-02-20',
      due: '2025-03-22',
      net: '1000.00',
      vat: '150.00',
      total: '1150.00',
    });
    const company = as(t.app, b.token, b.companyId);
    for (const api_ of [bApi, company]) {
      const url = api_ === bApi ? '/api/contacts/aged-creditors' : '/api/reports/aged-creditors';
      const r = await api_({ method: 'GET', url: `${url}?asOf=2025-06-30` });
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(buckets(r.json()[0]), [0, 0, 0, 0, 1150, 0, 1150, 1150]);
    }
  });
});

describe('unapplied credit is not aged (issue 34, item 20)', () => {
  test('a credit note and an overpayment not applied: in unapplied, in no bucket and not in overdue', async () => {
    const b = await register(t.app, { plan: 'business' });
    await seedChart(t, b.tenantId, b.companyId);
    const bApi = as(t.app, b.token);
    const res = await bApi({ method: 'POST', url: '/api/contacts', payload: { name: 'Credit Corner' } });
    const who = res.json().id as string;
    const T = b.tenantId;
    const co = b.companyId;
    // An invoice of 1,150.00 due 2025-05-16: 45 days past due on 2025-06-30 (days60).
    await invoice(t, T, co, who, { date: '2025-04-16', due: '2025-05-16', amount: '1150.00' });
    // A credit note of 230.00 (2025-05-21, 40 days old) and an overpayment of 100.00 (2025-06-25)
    // on items of their own, applied to nothing: credit balances on debtors control.
    await post(t, T, co, '2025-05-21', [
      { account: 'sales', debit: '230.00' },
      { account: 'debtors_control', credit: '230.00', contactId: who, openItemId: crypto.randomUUID() },
    ]);
    await post(t, T, co, '2025-06-25', [
      { account: 'bank', debit: '100.00' },
      { account: 'debtors_control', credit: '100.00', contactId: who, openItemId: crypto.randomUUID() },
    ]);
    // The invoice alone is aged: days60 1,150.00, overdue 1,150.00. The credit, 230 + 100 =
    // 330.00, is unapplied (−330.00: it reduces what the customer owes); total 1,150 − 330 = 820.00.
    const expected = [
      {
        contactId: who,
        contactName: 'Credit Corner',
        current: 0,
        days30: 0,
        days60: 1150,
        days90: 0,
        days120: 0,
        older: 0,
        unapplied: -330,
        total: 820,
        overdue: 1150,
      },
    ];
    const r = await bApi({ method: 'GET', url: '/api/contacts/aged-debtors?asOf=2025-06-30' });
    assert.deepEqual(r.json(), expected);
    // A customer whose credit equals what is overdue still shows: 1,150 overdue, −1,150 unapplied.
    await post(t, T, co, '2025-06-26', [
      { account: 'bank', debit: '820.00' },
      { account: 'debtors_control', credit: '820.00', contactId: who, openItemId: crypto.randomUUID() },
    ]);
    const even = await bApi({ method: 'GET', url: '/api/contacts/aged-debtors?asOf=2025-06-30' });
    assert.deepEqual(
      even.json().map((x: Row) => [x.days60, x.unapplied, x.total, x.overdue]),
      [[1150, -1150, 0, 1150]],
    );
  });
});
