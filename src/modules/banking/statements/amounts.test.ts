// Money as banks write it: the decimal mark decided from the whole file, each cell read strictly
// with it, and the sign from a minus, brackets or a Cr / Dr marker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  decideDecimalMark,
  markEvidence,
  moneyText,
  readMoney,
  readNumber,
  scanMoney,
  unmarkedMeaning,
} from './amounts.ts';

const read = (raw: string, mark: '.' | ',', unmarked: 'plain' | 'debit' | 'credit' = 'plain') => {
  const cell = scanMoney(raw);
  return cell && readMoney(cell, mark, unmarked);
};

test('each spelling of one thousand two hundred and thirty-four rand fifty-six reads the same', () => {
  // The four spellings, each with the mark its file decided.
  assert.equal(read('1.234,56', ','), '1234.56');
  assert.equal(read('1 234,56', ','), '1234.56');
  assert.equal(read('1,234.56', '.'), '1234.56');
  assert.equal(read('1234,56', ','), '1234.56');
  assert.equal(read('1\u00a0234,56', ','), '1234.56');
  assert.equal(read("1'234.56", '.'), '1234.56');
  assert.equal(read('R 1 234.56', '.'), '1234.56');
  assert.equal(read('-R1,234.56', '.'), '-1234.56');
  assert.equal(read('R -1 234.56', '.'), '-1234.56');
  assert.equal(read('ZAR 1234.56', '.'), '1234.56');
});

test('a decimal comma is never a thousands separator: -1 234,56 is minus one thousand two hundred and thirty-four', () => {
  // The defect: read cell by cell, "-1 234,56" became -123456.00 and "-1006,60" -100660.00.
  assert.equal(read('-1 234,56', ','), '-1234.56');
  assert.equal(read('-1006,60', ','), '-1006.60');
  // With the other mark the cell does not fit: an error on its row, not money 100 times too large.
  assert.equal(read('-1 234,56', '.'), null);
  assert.equal(read('-1006,60', '.'), null);
});

test('signs: trailing minus, brackets, plus, and Cr / Dr markers', () => {
  assert.equal(read('1,234.56-', '.'), '-1234.56');
  assert.equal(read('(50.00)', '.'), '-50.00');
  assert.equal(read('+1,006.60', '.'), '1006.60');
  assert.equal(read('1,234.56 Cr', '.'), '1234.56');
  assert.equal(read('1,234.56Dr', '.'), '-1234.56');
  assert.equal(read('1 234,56 DR', ','), '-1234.56');
  assert.equal(read('Dr 50.00', '.'), '-50.00');
  // A minus and Dr say the same; a minus and Cr contradict each other.
  assert.equal(read('-50.00 Dr', '.'), '-50.00');
  assert.equal(read('-50.00 Cr', '.'), null);
  assert.equal(read('-50.00-', '.'), '-50.00');
  assert.equal(read('-50.00+', '.'), null);
});

test('an unmarked amount in a column that marks only its credits is money out (FNB)', () => {
  const column = ['1,200.00 Cr', '50.00', '6.50', '300.00Cr'].map(scanMoney);
  assert.equal(unmarkedMeaning(column), 'debit');
  assert.deepEqual(
    column.map((c) => readMoney(c!, '.', 'debit')),
    ['1200.00', '-50.00', '-6.50', '300.00'],
  );
  // Both markers: credits are marked, so a bare amount is still money out.
  assert.equal(unmarkedMeaning(['50.00 Dr', '1200.00 Cr', '7.00'].map(scanMoney)), 'debit');
  // Marks only its debits: a bare amount is money in.
  assert.equal(unmarkedMeaning(['50.00 Dr', '1200.00'].map(scanMoney)), 'credit');
  // Explicit minus signs, or no marker anywhere: read as written.
  assert.equal(unmarkedMeaning(['-50.00', '1200.00 Cr'].map(scanMoney)), 'plain');
  assert.equal(unmarkedMeaning(['50.00', '1200.00'].map(scanMoney)), 'plain');
  // No marker in the column, but the file marks its balances (14,950.00 Cr): the statement's
  // convention, a bare amount is money out.
  assert.equal(unmarkedMeaning(['50.00', '20.00'].map(scanMoney), true), 'debit');
});

test('what one number says of the mark', () => {
  assert.equal(markEvidence('1.234,56'), ',');
  assert.equal(markEvidence('1,234.56'), '.');
  assert.equal(markEvidence('50,00'), ',');
  assert.equal(markEvidence('50.5'), '.');
  assert.equal(markEvidence('1.234.567'), ',');
  assert.equal(markEvidence('1,234,567'), '.');
  assert.equal(markEvidence('0,500'), ',');
  assert.equal(markEvidence('1234,567'), ',');
  assert.equal(markEvidence('1 234,567'), ',');
  assert.equal(markEvidence('1,234'), 'either');
  assert.equal(markEvidence('12.500'), 'either');
  assert.equal(markEvidence('1234'), null);
  assert.equal(markEvidence('1 234'), null);
});

test("the file decides: one cell's evidence settles every ambiguous cell; both marks, or none decisive, are not guessed", () => {
  // "1,234" beside "50.00": a thousand two hundred and thirty-four.
  const pointFile = decideDecimalMark(['50.00', '1,234', '7.5']);
  assert.deepEqual(pointFile, { mark: '.' });
  assert.equal(read('1,234', '.'), '1234.00');
  // "1,234" beside "50,00": one rand twenty-three point four cents: three decimals, refused.
  assert.deepEqual(decideDecimalMark(['50,00', '1,234']), { mark: ',' });
  assert.equal(read('1,234', ','), null);
  assert.deepEqual(decideDecimalMark(['1,234', '2,500', '900']), { ambiguous: ['1,234', '2,500'] });
  assert.deepEqual(decideDecimalMark(['1,234.56', '7,50']), {
    conflicting: { point: '1,234.56', comma: '7,50' },
  });
  // Whole rands only: nothing to decide, nothing lost.
  assert.deepEqual(decideDecimalMark(['100', '2 500']), { mark: '.' });
});

test('a strict read: thousands in groups of three, at most two decimals (more only when zeros)', () => {
  assert.equal(readNumber('1,23.45', '.'), null);
  assert.equal(readNumber('12,3456.00', '.'), null);
  assert.equal(readNumber('1.234.56', '.'), null);
  assert.equal(readNumber('12.500', '.'), '12.50');
  assert.equal(readNumber('12.505', '.'), null);
  assert.equal(readNumber('007.5', '.'), '7.50');
  assert.equal(readNumber('1 234 567,8', ','), '1234567.80');
  assert.equal(scanMoney('six'), null);
  assert.equal(scanMoney(''), null);
  assert.equal(scanMoney('R'), null);
  assert.equal(scanMoney('12-34'), null);
});

test('a value on its own: the mark given, or the one it shows', () => {
  assert.equal(moneyText('-754.25', '.'), '-754.25');
  assert.equal(moneyText('-1006,60'), '-1006.60');
  assert.equal(moneyText('-1.006,60'), '-1006.60');
  assert.equal(moneyText('+1 006,60'), '1006.60');
  assert.equal(moneyText('0'), '0.00');
  assert.equal(moneyText('-0.00'), '0.00');
});
