// A supplier's bill whose VAT comes to less than zero (issue 34, item 18, the input side's
// mirror): input tax is reduced by the supplier's credit note (VAT Act s21(1), s21(3)), which the
// bill credit notes take, not by a bill that would claim a negative input tax in field 15.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createBill, purchasesSetup } from './bills.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('a bill below zero', () => {
  test('exempt 1,000 and a standard-rated line of −100: VAT −15.00 is 422 naming vatAmount', async () => {
    const p = await purchasesSetup(t, await register(t.app, { plan: 'business' }));
    // 1,000 exempt (no VAT) + (−100 × 15% = −15.00): total 1,000 − 100 − 15 = 885.00, VAT −15.00.
    const res = await createBill(p, {
      lines: [
        { description: 'Insurance (exempt)', quantity: 1, unitPrice: 1000, taxCode: 'exempt' },
        { description: 'Returned toner', quantity: 1, unitPrice: -100 },
      ],
    });
    const body = assertProblem(res, 422);
    assert.deepEqual([body.code, body.field], ['CREDIT_NOTE_REQUIRED', 'vatAmount']);
    // A negative line whose VAT the rest outweighs is a discount: 1,000 − 100 standard-rated,
    // VAT 150 − 15 = 135.00, total 1,035.00.
    const ok = await createBill(p, {
      lines: [
        { description: 'Toner', quantity: 1, unitPrice: 1000 },
        { description: 'Discount', quantity: 1, unitPrice: -100 },
      ],
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.deepEqual([ok.json().vatAmount, ok.json().amount], [135, 1035]);
    // A draft's lines replaced (PATCH) are held to the same rule: the exempt 1,000 and the −100
    // standard-rated line again give VAT −15.00, 422 naming vatAmount, and the draft is unchanged.
    const patched = await p.api({
      method: 'PATCH',
      url: `/api/bills/${ok.json().id}`,
      payload: {
        lines: [
          { description: 'Insurance (exempt)', quantity: 1, unitPrice: 1000, taxCode: 'exempt' },
          { description: 'Returned toner', quantity: 1, unitPrice: -100 },
        ],
      },
    });
    const again = assertProblem(patched, 422);
    assert.deepEqual([again.code, again.field], ['CREDIT_NOTE_REQUIRED', 'vatAmount']);
    const still = await p.api({ method: 'GET', url: `/api/bills/${ok.json().id}` });
    assert.deepEqual([still.json().vatAmount, still.json().amount], [135, 1035]);
  });
});
