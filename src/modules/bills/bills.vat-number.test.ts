// Issue 34, item 6: the R5,000 rule wants the supplier's VAT registration number, and "N/A" or "1"
// is not one. VAT Act s16(2): no input tax without a tax invoice; s20(4): above R5,000 a full tax
// invoice, which shows the supplier's VAT registration number; s20(5): an abridged one (up to
// R5,000) shows it too. A South African VAT number is ten digits starting with 4; anything else
// counts as none.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { claim, claimsSetup } from '../expenses/expenses.factories.ts';
import { createBill, created, type Purchases, purchasesSetup } from './bills.factories.ts';
import { saVatNumber } from './bills.vat.ts';

let t: TestApp;
/** A supplier contact with no VAT number of its own. */
let p: Purchases;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  p = await purchasesSetup(t, await register(t.app, { plan: 'business' }), { supplierVatNumber: null });
});
after(() => t.close());

// 50 × R100.00 = R5,000.00 net, standard-rated: VAT 15% = R750.00, total R5,750.00 > R5,000:
// a full tax invoice is needed (s20(4)).
const FULL = [{ description: 'Office chairs', quantity: 50, unitPrice: 100 }];
// 10 × R100.00 = R1,000.00 net + R150.00 VAT = R1,150.00: from R50 to R5,000, abridged (s20(5)).
const ABRIDGED = [{ description: 'Printer paper', quantity: 10, unitPrice: 100 }];

let n = 0;
const bill = (supplierVatNumber: string | undefined, lines = FULL) =>
  createBill(p, {
    billNumber: `VATNO-${++n}`,
    lines,
    ...(supplierVatNumber === undefined ? {} : { supplierVatNumber }),
  });

describe('the supplier VAT number for the R5,000 rule', () => {
  test('what a South African VAT number is', () => {
    assert.equal(saVatNumber('4123456789'), '4123456789');
    assert.equal(saVatNumber(' 4123 456 789 '), '4123456789');
    for (const not of [
      'N/A',
      '1',
      '',
      '5123456789',
      '412345678',
      '41234567890',
      '4123-456-789',
      'GB123456789',
    ])
      assert.equal(saVatNumber(not), null, not);
  });

  test('above R5,000, "N/A", "1" or a number not starting with 4: 400 naming supplierVatNumber', async () => {
    for (const given of ['N/A', '1', '5123456789', '412345678']) {
      const res = await bill(given);
      const problem = assertProblem(res, 400);
      assert.equal(problem.field, 'supplierVatNumber', given);
      assert.match(String(problem.detail), /not a South African VAT number/);
    }
  });

  test('above R5,000 with 4123456789 (or spaced 4123 456 789): accepted, the number kept as ten digits', async () => {
    const ok = await created(p, { billNumber: `VATNO-${++n}`, lines: FULL, supplierVatNumber: '4123456789' });
    assert.deepEqual(
      [ok.amount, ok.vatAmount, ok.supplierVatNumber, ok.vatWarning],
      [5750, 750, '4123456789', null],
    );
    const spaced = await created(p, {
      billNumber: `VATNO-${++n}`,
      lines: FULL,
      supplierVatNumber: '4123 456 789',
    });
    assert.equal(spaced.supplierVatNumber, '4123456789');
  });

  test('the contact\'s vatNumber "N/A" counts as none too', async () => {
    const c = await p.api({
      method: 'PATCH',
      url: `/api/contacts/${p.supplierId}`,
      payload: { vatNumber: 'N/A' },
    });
    assert.equal(c.statusCode, 200, c.body);
    try {
      assert.equal(assertProblem(await bill(undefined), 400).field, 'supplierVatNumber');
    } finally {
      await p.api({ method: 'PATCH', url: `/api/contacts/${p.supplierId}`, payload: { vatNumber: null } });
    }
  });

  test('R1,150.00 with "N/A": kept with the warning, and no VAT number recorded', async () => {
    const small = await created(p, { billNumber: `VATNO-${++n}`, lines: ABRIDGED, supplierVatNumber: 'N/A' });
    assert.deepEqual([small.amount, small.vatAmount, small.supplierVatNumber], [1150, 150, null]);
    assert.match(small.vatWarning, /"N\/A" is not a South African VAT number/);
  });

  test('an expense claim of R5,750.00 with supplierVatNumber "N/A": 400 naming supplierVatNumber', async () => {
    const { clerk } = await claimsSetup(t);
    // 15/115 × R5,750.00 = R750.00 VAT (s1 tax fraction): above R5,000, a full tax invoice.
    const res = await clerk({
      method: 'POST',
      url: '/api/expenses',
      payload: {
        date: '2026-03-05',
        description: 'Laptop',
        amount: 5750,
        paidWith: 'company_card',
        supplierVatNumber: 'N/A',
      },
    });
    assert.equal(assertProblem(res, 400).field, 'supplierVatNumber');
    const fine = await claim(clerk, {
      amount: 5750,
      supplierVatNumber: '4222222222',
      paidWith: 'company_card',
    });
    assert.equal(fine.vatAmount, 750);
  });
});
