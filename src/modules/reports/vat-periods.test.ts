// VAT periods by category (VAT Act s27; SARS VAT 404, tax periods), worked by hand from the
// calendar: A two months ending in the odd months, B in the even months, C one month, D six months
// ending February and August, E twelve months ending at the financial year end.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { periodById, periodContaining, periodsOverlapping } from './vat-periods.ts';

const FEB = 2;

describe('the VAT period containing a day', () => {
  test('A: 2026-01-15 is in December-January, 2026-02-10 in February-March', () => {
    assert.deepEqual(periodContaining('A', FEB, '2026-01-15'), {
      id: '2026-01',
      from: '2025-12-01',
      to: '2026-01-31',
    });
    assert.deepEqual(periodContaining('A', FEB, '2026-02-10'), {
      id: '2026-03',
      from: '2026-02-01',
      to: '2026-03-31',
    });
  });

  test('B: 2026-02-10 is in January-February (28 days in 2026, 29 in the leap year 2024)', () => {
    assert.deepEqual(periodContaining('B', FEB, '2026-02-10'), {
      id: '2026-02',
      from: '2026-01-01',
      to: '2026-02-28',
    });
    assert.deepEqual(periodContaining('B', FEB, '2024-01-01'), {
      id: '2024-02',
      from: '2024-01-01',
      to: '2024-02-29',
    });
    assert.deepEqual(periodContaining('B', FEB, '2025-12-31'), {
      id: '2025-12',
      from: '2025-11-01',
      to: '2025-12-31',
    });
  });

  test('C: the month itself', () => {
    assert.deepEqual(periodContaining('C', FEB, '2026-04-30'), {
      id: '2026-04',
      from: '2026-04-01',
      to: '2026-04-30',
    });
  });

  test('D: September-February and March-August', () => {
    assert.deepEqual(periodContaining('D', FEB, '2026-02-10'), {
      id: '2026-02',
      from: '2025-09-01',
      to: '2026-02-28',
    });
    assert.deepEqual(periodContaining('D', FEB, '2026-03-01'), {
      id: '2026-08',
      from: '2026-03-01',
      to: '2026-08-31',
    });
  });

  test('E: the financial year (February: March-February; June: July-June)', () => {
    assert.deepEqual(periodContaining('E', FEB, '2026-02-10'), {
      id: '2026-02',
      from: '2025-03-01',
      to: '2026-02-28',
    });
    assert.deepEqual(periodContaining('E', 6, '2026-02-10'), {
      id: '2026-06',
      from: '2025-07-01',
      to: '2026-06-30',
    });
  });
});

describe('a period by its id (the end month)', () => {
  test('an end month of the category is a period; another month is none', () => {
    assert.deepEqual(periodById('B', FEB, '2026-04'), {
      id: '2026-04',
      from: '2026-03-01',
      to: '2026-04-30',
    });
    assert.equal(periodById('B', FEB, '2026-03'), undefined);
    assert.deepEqual(periodById('A', FEB, '2026-03'), {
      id: '2026-03',
      from: '2026-02-01',
      to: '2026-03-31',
    });
    assert.equal(periodById('D', FEB, '2026-06'), undefined);
    assert.equal(periodById('C', FEB, '2026-13'), undefined);
  });
});

describe('the periods overlapping a financial year (March 2025 to February 2026)', () => {
  const year = { from: '2025-03-01', to: '2026-02-28' };
  const ids = (c: 'A' | 'B' | 'C' | 'D' | 'E') => periodsOverlapping(c, FEB, year).map((p) => p.id);

  test('A: seven, the first and last straddling the year ends (February-March)', () => {
    assert.deepEqual(ids('A'), ['2025-03', '2025-05', '2025-07', '2025-09', '2025-11', '2026-01', '2026-03']);
  });
  test('B: six, exactly the year', () => {
    assert.deepEqual(ids('B'), ['2025-04', '2025-06', '2025-08', '2025-10', '2025-12', '2026-02']);
  });
  test('C: twelve months', () => {
    assert.equal(ids('C').length, 12);
    assert.deepEqual([ids('C')[0], ids('C')[11]], ['2025-03', '2026-02']);
  });
  test('D: two; E: one', () => {
    assert.deepEqual(ids('D'), ['2025-08', '2026-02']);
    assert.deepEqual(ids('E'), ['2026-02']);
  });
  test('more than 120 periods is a 400 naming to', () => {
    assert.throws(
      () => periodsOverlapping('C', FEB, { from: '2000-01-01', to: '2026-01-31' }),
      (e: { status?: number; extensions?: { field?: string } }) =>
        e.status === 400 && e.extensions?.field === 'to',
    );
  });
});
