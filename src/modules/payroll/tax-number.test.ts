// SARS income tax numbers, each worked by hand: the 1st, 3rd, 5th, 7th and 9th digits doubled
// (above 9: the sum of its digits), the 2nd, 4th, 6th, 8th and 10th added; valid when the total
// is a multiple of 10.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { taxNumberProblem } from './tax-number.ts';

describe('taxNumberProblem', () => {
  test('0001339050 is valid', () => {
    // doubled: 0,0,3→6,9→18→9,5→10→1 = 16; added: 0+1+3+0+0 = 4; 20 ✓
    assert.equal(taxNumberProblem('0001339050'), undefined);
  });

  test('0843089848 is valid', () => {
    // doubled: 0,4→8,0,9→9,4→8 = 25; added: 8+3+8+8+8 = 35; 60 ✓
    assert.equal(taxNumberProblem('0843089848'), undefined);
  });

  test('a wrong check digit: 0001339051 (total 21)', () => {
    assert.match(taxNumberProblem('0001339051')!, /check digit/);
  });

  test('two digits swapped: 0003139050', () => {
    // doubled: 0,0,1→2,9→9,5→1 = 12; added: 0+3+3+0+0 = 6; 18 ✗
    assert.match(taxNumberProblem('0003139050')!, /check digit/);
  });

  test('a first digit other than 0, 1, 2, 3, 9 (a VAT number starts with 4)', () => {
    assert.equal(taxNumberProblem('4001339050'), 'must start with 0, 1, 2, 3 or 9');
  });

  test('not 10 digits', () => {
    for (const n of ['000133905', '00013390500', '000133905x', '']) {
      assert.equal(taxNumberProblem(n), 'must be 10 digits', n);
    }
  });
});
