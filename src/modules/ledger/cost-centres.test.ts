// Cost centres: named on bill and journal lines; the income statement read for one of them.
// The bill is the factories' 1,000.00 standard-rated (VAT 150.00) + 200.00 exempt = 1,350.00.
// The company is VAT-registered, so each line's cost is its net amount (VAT Act s16(3): the VAT
// is input tax, on 1300, not a cost).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { approved, createBill, type Purchases, purchasesSetup } from '../bills/bills.factories.ts';
import { claim, claimsSetup, ok } from '../expenses/expenses.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

async function setup() {
  return purchasesSetup(t, await register(t.app, { plan: 'business' }));
}

async function centre(p: Purchases, code: string, name: string): Promise<{ id: string }> {
  const res = await p.api({ method: 'POST', url: '/api/cost-centres', payload: { code, name } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function statement(p: Purchases, costCentreId?: string) {
  const q = costCentreId ? `&costCentreId=${costCentreId}` : '';
  const res = await p.api({
    method: 'GET',
    url: `/api/reports/income-statement?from=2026-03-01&to=2026-03-31${q}`,
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const byCode = (section: { accounts: Array<{ code: string | null; amount: number }> }) =>
  Object.fromEntries(section.accounts.map((l) => [l.code, l.amount]));

describe('cost centres', () => {
  test('made, listed (a bare array by code), renamed and deactivated; a code once per company', async () => {
    const p = await setup();
    const jhb = await centre(p, 'JHB', 'Johannesburg branch');
    const cpt = await centre(p, 'CPT', 'Cape Town branch');
    const list = (await p.api({ method: 'GET', url: '/api/cost-centres' })).json();
    assert.deepEqual(
      list.map((c: { code: string }) => c.code),
      ['CPT', 'JHB'],
    );
    const dup = await p.api({
      method: 'POST',
      url: '/api/cost-centres',
      payload: { code: 'cpt', name: 'Again' },
    });
    assert.equal(dup.statusCode, 409, dup.body);
    assert.equal(dup.json().field, 'code');
    const off = await p.api({
      method: 'PATCH',
      url: `/api/cost-centres/${jhb.id}`,
      payload: { isActive: false },
    });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().isActive, false);
    const active = (await p.api({ method: 'GET', url: '/api/cost-centres?isActive=true' })).json();
    assert.deepEqual(
      active.map((c: { id: string }) => c.id),
      [cpt.id],
    );
    // A deactivated one is named on no new line.
    const refused = await createBill(p, {
      lines: [{ description: 'Paper', quantity: 1, unitPrice: 10, costCentreId: jhb.id }],
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /lines\[0\]\.costCentreId/);
    // Another tenant's is none of this company's: 404 by its address, 400 on a line.
    const other = await setup();
    assert.equal((await other.api({ method: 'GET', url: `/api/cost-centres/${cpt.id}` })).statusCode, 404);
    const foreign = await createBill(other, { costCentreId: cpt.id });
    assert.equal(foreign.statusCode, 400, foreign.body);
    assert.match(foreign.body, /costCentreId/);
  });

  test('a bill, a credit note and a journal, read per cost centre in the income statement', async () => {
    const p = await setup();
    const cpt = await centre(p, 'CPT', 'Cape Town branch');
    const jhb = await centre(p, 'JHB', 'Johannesburg branch');
    // The bill names CPT; its exempt line names JHB. The paper line takes the bill's CPT.
    const bill = await approved(p, {
      costCentreId: cpt.id,
      lines: [
        { description: 'Printer paper', quantity: 10, unitPrice: 100 },
        {
          description: 'Postage (exempt)',
          quantity: 1,
          unitPrice: 200,
          taxCode: 'exempt',
          costCentreId: jhb.id,
        },
      ],
    });
    assert.deepEqual(
      bill.lines.map((l: { costCentreId: string }) => l.costCentreId),
      [cpt.id, jhb.id],
    );
    // A supplier credit note of 100.00 standard (VAT 15.00) against it: the standard line's
    // cost centre, CPT, carries the credit.
    const note = await p.api({
      method: 'POST',
      url: '/api/bills/credit-notes',
      payload: {
        billId: bill.id,
        creditNoteNumber: 'SCN-1',
        issueDate: '2026-03-05',
        settlement: 'offset',
        lines: [{ description: 'Paper returned', quantity: 1, unitPrice: 100 }],
      },
    });
    assert.equal(note.statusCode, 201, note.body);
    // A manual journal: bank charges of 50.00 for JHB.
    const journal = await p.api({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '2026-03-06',
        description: 'JHB bank charges',
        lines: [
          { accountCode: '6100', debit: 50, costCentreId: jhb.id },
          { accountCode: '1000', credit: 50 },
        ],
      },
    });
    assert.equal(journal.statusCode, 201, journal.body);
    assert.equal(journal.json().lines[0].costCentreId, jhb.id);

    // CPT: paper 1,000.00 less the credit's 100.00 = 900.00 on 6750; a loss of 900.00.
    const c = await statement(p, cpt.id);
    assert.deepEqual(c.costCentre, { id: cpt.id, code: 'CPT', name: 'Cape Town branch' });
    assert.deepEqual(byCode(c.expenses), { '6750': 900 });
    assert.deepEqual([c.expenses.total, c.netProfit], [900, -900]);
    // JHB: postage 200.00 on 6750 and bank charges 50.00 on 6100 = 250.00.
    const j = await statement(p, jhb.id);
    assert.deepEqual(byCode(j.expenses), { '6100': 50, '6750': 200 });
    assert.deepEqual([j.expenses.total, j.netProfit], [250, -250]);
    // The whole company: 900.00 + 250.00 = 1,150.00, the two centres together (every line named one).
    const all = await statement(p);
    assert.equal(all.costCentre, null);
    assert.deepEqual([all.expenses.total, all.netProfit], [1150, -1150]);
    // The journal lines list filters by cost centre: JHB's bill line and the journal's line.
    const lines = (await p.api({ method: 'GET', url: `/api/ledger?costCentreId=${jhb.id}` })).json();
    assert.deepEqual(
      lines.items.map((l: { accountCode: string; debit: number }) => [l.accountCode, l.debit]).sort(),
      [
        ['6100', 50],
        ['6750', 200],
      ],
    );

    // Voiding the journal posts its reversal with the same cost centre: JHB falls back to the
    // bill's 200.00.
    const voided = await p.api({ method: 'DELETE', url: `/api/ledger/journals/${journal.json().id}` });
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal((await statement(p, jhb.id)).expenses.total, 200);
  });

  test('the income statement: an unparseable costCentreId is 400, another tenant’s 404', async () => {
    const p = await setup();
    const bad = await p.api({ method: 'GET', url: '/api/reports/income-statement?costCentreId=nope' });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.body, /costCentreId/);
    const other = await setup();
    const theirs = await centre(other, 'X', 'Theirs');
    const foreign = await p.api({
      method: 'GET',
      url: `/api/reports/income-statement?costCentreId=${theirs.id}`,
    });
    assert.equal(foreign.statusCode, 404, foreign.body);
  });
});

describe('an expense claim', () => {
  test('its cost posts to its cost centre; a cost centre of another company is refused', async () => {
    const s = await claimsSetup(t);
    const ops = await s.owner({
      method: 'POST',
      url: '/api/cost-centres',
      payload: { code: 'OPS', name: 'Operations' },
    });
    assert.equal(ops.statusCode, 201, ops.body);
    // R115.00 incl. VAT at 15%: VAT is the tax fraction 15/115 × 115.00 = 15.00 (VAT Act s1), the
    // cost 100.00, in OPS.
    const c = await claim(s.clerk, { amount: 115, description: 'Taxi', costCentreId: ops.json().id });
    await ok(s.owner, 'POST', `/api/expenses/${c.id}/approve`);
    const res = await s.owner({
      method: 'GET',
      url: `/api/reports/income-statement?from=2026-03-01&to=2026-03-31&costCentreId=${ops.json().id}`,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json().expenses.total, res.json().netProfit], [100, -100]);
    const other = await setup();
    const theirs = await centre(other, 'X', 'Theirs');
    const refused = await s.clerk({
      method: 'POST',
      url: '/api/expenses',
      payload: {
        date: '2026-03-05',
        description: 'Taxi',
        amount: 115,
        paidWith: 'personal',
        costCentreId: theirs.id,
      },
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /costCentreId/);
  });
});
