// Commercial accommodation on a sales line (VAT Act s10(10); VAT201 fields 5-9): a stay of 28 days
// or less is taxed at the standard rate on its whole value; a stay of more than 28 days on 60% of
// it. Each line's VAT is rounded half-up to cents (DECISIONS.md, "Money and VAT").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineAmounts, lineTaxCode } from './document-vat.ts';

const at = { vatRegistered: true, issueDate: '2026-03-10' };
const vatOf = (
  unitPrice: number,
  taxCode: 'accommodation_long' | 'accommodation_short',
  issueDate = '2026-03-10',
) => lineAmounts({ quantity: 1, unitPrice, taxCode }, { ...at, issueDate });

describe('accommodation lines', () => {
  test('long stay: 15% × 60% × 1,234.56 = 111.1104 → 111.11; rate 15 shown', () => {
    const l = vatOf(1234.56, 'accommodation_long');
    assert.deepEqual(
      [l.vatRate.toString(), l.vat.toString(), l.total.toString()],
      ['15', '111.11', '1345.67'],
    );
  });

  test('long stay, half a cent: 15% × 60% × 5.50 = 0.495 → 0.50 (half-up)', () => {
    assert.equal(vatOf(5.5, 'accommodation_long').vat.toString(), '0.5');
  });

  test('long stay in 2017: 14% × 60% × 1,000 = 84.00', () => {
    assert.equal(vatOf(1000, 'accommodation_long', '2017-06-01').vat.toString(), '84');
  });

  test('short stay: 15% × 1,234.56 = 185.184 → 185.18', () => {
    assert.equal(vatOf(1234.56, 'accommodation_short').vat.toString(), '185.18');
  });

  test('not registered: no VAT whatever the code', () => {
    const l = lineAmounts(
      { quantity: 1, unitPrice: 1000, taxCode: 'accommodation_long' },
      { vatRegistered: false, issueDate: '2026-03-10' },
    );
    assert.deepEqual([l.vatRate.toString(), l.vat.toString()], ['0', '0']);
  });

  test('vatRate 15 agrees with an accommodation code; 0 does not', () => {
    assert.equal(
      lineTaxCode({ taxCode: 'accommodation_long', vatRate: 15 }, '2026-03-10'),
      'accommodation_long',
    );
    assert.throws(() => lineTaxCode({ taxCode: 'accommodation_short', vatRate: 0 }, '2026-03-10'));
  });
});
