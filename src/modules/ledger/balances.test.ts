// How a range of days is read from the balances: whole months from the monthly roll-up, the
// days of a partly covered first or last month from the daily rows. (Against the lines
// themselves, over random postings: posting.property.test.ts.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { splitRange } from './balances.ts';

describe('splitRange', () => {
  test('open ends', () => {
    assert.deepEqual(splitRange({}), { months: {}, days: [] });
    assert.deepEqual(splitRange({ to: '2026-03-31' }), { months: { to: '2026-04-01' }, days: [] });
    assert.deepEqual(splitRange({ to: '2026-03-15' }), {
      months: { to: '2026-03-01' },
      days: [{ from: '2026-03-01', to: '2026-03-15' }],
    });
    assert.deepEqual(splitRange({ from: '2026-03-01' }), { months: { from: '2026-03-01' }, days: [] });
    assert.deepEqual(splitRange({ from: '2026-03-10' }), {
      months: { from: '2026-04-01' },
      days: [{ from: '2026-03-10', to: '2026-03-31' }],
    });
  });

  test('whole months, with days before and after', () => {
    assert.deepEqual(splitRange({ from: '2025-03-01', to: '2026-02-28' }), {
      months: { from: '2025-03-01', to: '2026-03-01' },
      days: [],
    });
    assert.deepEqual(splitRange({ from: '2026-01-31', to: '2026-03-01' }), {
      months: { from: '2026-02-01', to: '2026-03-01' },
      days: [
        { from: '2026-01-31', to: '2026-01-31' },
        { from: '2026-03-01', to: '2026-03-01' },
      ],
    });
  });

  test('no whole month: days only; from after to: nothing', () => {
    assert.deepEqual(splitRange({ from: '2026-03-10', to: '2026-03-20' }), {
      months: null,
      days: [{ from: '2026-03-10', to: '2026-03-20' }],
    });
    assert.deepEqual(splitRange({ from: '2026-01-31', to: '2026-02-15' }), {
      months: null,
      days: [{ from: '2026-01-31', to: '2026-02-15' }],
    });
    assert.deepEqual(splitRange({ from: '2026-03-02', to: '2026-03-01' }), { months: null, days: [] });
  });
});
