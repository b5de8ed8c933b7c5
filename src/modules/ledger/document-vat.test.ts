// The VAT and rounding rules with worked figures.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { documentTotals, lineAmounts, lineTaxCode, standardRate } from './document-vat.ts';

const registered = { vatRegistered: true, issueDate: '2026-03-01' };
const fixed = (v: { toFixed(n: number): string }) => v.toFixed(2);

describe('VAT and rounding', () => {
  test('3 × 333.33 = 999.99, VAT 150.00, total 1,149.99 (VAT rounded half-up per line)', () => {
    const l = lineAmounts({ quantity: 3, unitPrice: 333.33 }, registered);
    assert.deepEqual([fixed(l.net), fixed(l.vat), fixed(l.total)], ['999.99', '150.00', '1149.99']);
    assert.equal(l.vatRate.toString(), '15');
    assert.equal(l.taxCode, 'standard');
  });

  test('the standard rate is 14% before 2018-04-01 and 15% from that day', () => {
    assert.equal(standardRate('2018-03-31').toString(), '14');
    assert.equal(standardRate('2018-04-01').toString(), '15');
    const old = lineAmounts(
      { quantity: 1, unitPrice: 100 },
      { vatRegistered: true, issueDate: '2018-03-31' },
    );
    assert.deepEqual([fixed(old.vat), fixed(old.total)], ['14.00', '114.00']);
    const now = lineAmounts(
      { quantity: 1, unitPrice: 100 },
      { vatRegistered: true, issueDate: '2018-04-01' },
    );
    assert.deepEqual([fixed(now.vat), fixed(now.total)], ['15.00', '115.00']);
  });

  test('a company not registered on the issue date charges no VAT, whatever the line says', () => {
    const l = lineAmounts(
      { quantity: 2, unitPrice: 50, vatRate: 15 },
      { vatRegistered: false, issueDate: '2026-03-01' },
    );
    assert.deepEqual([fixed(l.vat), fixed(l.total)], ['0.00', '100.00']);
    // The line keeps its code (what it would be); the rate applied is 0.
    assert.deepEqual([l.taxCode, l.vatRate.toString()], ['standard', '0']);
  });

  test('vatRate 0 means zero, the standard rate of the date standard; any other rate is refused', () => {
    const zero = lineAmounts({ quantity: 1, unitPrice: 80, vatRate: 0 }, registered);
    assert.deepEqual([fixed(zero.vat), zero.taxCode], ['0.00', 'zero']);
    const stated = lineAmounts({ quantity: 1, unitPrice: 200, vatRate: 15 }, registered);
    assert.deepEqual([fixed(stated.vat), stated.taxCode], ['30.00', 'standard']);
    // 14% was the standard rate up to 2018-03-31 (s7(1)(a) before the 2018 amendment): 200 × 14% = 28.00
    const old = lineAmounts(
      { quantity: 1, unitPrice: 200, vatRate: 14 },
      { ...registered, issueDate: '2018-03-15' },
    );
    assert.deepEqual([fixed(old.vat), old.taxCode], ['28.00', 'standard']);
    // 14% in 2026, or 15% in March 2018, is no rate of its date: refused, naming the field.
    assert.throws(() => lineTaxCode({ vatRate: 14 }, '2026-03-01', 'lines[0].vatRate'), {
      status: 400,
      extensions: { field: 'lines[0].vatRate' },
    });
    assert.throws(() => lineTaxCode({ vatRate: 15 }, '2018-03-15', 'lines[1].vatRate'), {
      extensions: { field: 'lines[1].vatRate' },
    });
    assert.throws(() => lineTaxCode({ vatRate: 10 }, '2026-03-01'), { extensions: { field: 'vatRate' } });
    // Both given: they must agree.
    assert.equal(lineTaxCode({ taxCode: 'standard', vatRate: 15 }, '2026-03-01'), 'standard');
    assert.equal(lineTaxCode({ taxCode: 'exempt', vatRate: 0 }, '2026-03-01'), 'exempt');
    assert.throws(() => lineTaxCode({ taxCode: 'zero', vatRate: 15 }, '2026-03-01', 'lines[2].vatRate'), {
      extensions: { field: 'lines[2].vatRate' },
    });
    assert.throws(() => lineTaxCode({ taxCode: 'standard', vatRate: 0 }, '2026-03-01'), { status: 400 });
    // Neither: standard.
    assert.equal(lineTaxCode({}, '2026-03-01'), 'standard');
  });

  test('the rate follows the code: standard 15% (s7(1)(a)), zero (s11(1)), zero_export (s11(1)(a)), exempt (s12), out_of_scope all 0%', () => {
    const at = (taxCode: 'standard' | 'zero' | 'zero_export' | 'exempt' | 'out_of_scope') =>
      lineAmounts({ quantity: 1, unitPrice: 1000, taxCode }, registered);
    // 1,000 × 15% = 150.00
    assert.deepEqual([fixed(at('standard').vat), at('standard').vatRate.toString()], ['150.00', '15']);
    for (const code of ['zero', 'zero_export', 'exempt', 'out_of_scope'] as const) {
      assert.deepEqual(
        [fixed(at(code).vat), fixed(at(code).total), at(code).taxCode],
        ['0.00', '1000.00', code],
      );
    }
    // The same standard line in March 2018: 1,000 × 14% = 140.00
    const old = lineAmounts(
      { quantity: 1, unitPrice: 1000, taxCode: 'standard' },
      { ...registered, issueDate: '2018-03-15' },
    );
    assert.equal(fixed(old.vat), '140.00');
  });

  test('a negative line (a discount) is negative net and VAT: 1,000 and −100 standard → 900 + 135 = 1,035', () => {
    const sale = lineAmounts({ quantity: 1, unitPrice: 1000 }, registered);
    const discount = lineAmounts({ quantity: 1, unitPrice: -100 }, registered);
    // −100 × 15% = −15.00; 150.00 − 15.00 = 135.00
    assert.deepEqual([fixed(discount.net), fixed(discount.vat)], ['-100.00', '-15.00']);
    const t = documentTotals([sale, discount]);
    assert.deepEqual([fixed(t.subtotal), fixed(t.vatTotal), fixed(t.total)], ['900.00', '135.00', '1035.00']);
  });

  test('half-up at the half cent: net 0.05 → VAT 0.0075 → 0.01; 10.10 → 1.515 → 1.52', () => {
    assert.equal(fixed(lineAmounts({ quantity: 1, unitPrice: 0.05 }, registered).vat), '0.01');
    assert.equal(fixed(lineAmounts({ quantity: 1, unitPrice: 10.1 }, registered).vat), '1.52');
    // 0.1 + 0.2 is not 0.30000000000000004 here.
    assert.equal(fixed(lineAmounts({ quantity: 3, unitPrice: 0.1 }, registered).net), '0.30');
  });

  test('discountRate is a percent off the line, rounded half-up to cents before VAT', () => {
    // 7 × 14.99 = 104.93; 12.5% off = 13.11625 → net 91.81375 → 91.81; VAT 13.7715 → 13.77
    const l = lineAmounts({ quantity: 7, unitPrice: 14.99, discountRate: 12.5 }, registered);
    assert.deepEqual(
      [fixed(l.gross), fixed(l.discount), fixed(l.net), fixed(l.vat), fixed(l.total)],
      ['104.93', '13.12', '91.81', '13.77', '105.58'],
    );
  });

  test('totals are the sums of rounded lines, not the rounding of a sum', () => {
    // Three lines of 0.03 net: each VAT 0.0045 → 0.00; a VAT on the sum (0.09) would be 0.01.
    const lines = [1, 2, 3].map(() => lineAmounts({ quantity: 1, unitPrice: 0.03 }, registered));
    const t = documentTotals(lines);
    assert.deepEqual([fixed(t.subtotal), fixed(t.vatTotal), fixed(t.total)], ['0.09', '0.00', '0.09']);
    // Quantities with decimals: 2.5 kg × 19.99 = 49.975 → 49.98
    assert.equal(fixed(lineAmounts({ quantity: 2.5, unitPrice: 19.99 }, registered).net), '49.98');
  });
});
