// The answer's lists are capped at 100 beside their counts, a statement's notes too: a file of a
// thousand batches that do not add up answers 100 notes and how many more, not a thousand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { report } from './bank-statements.report.ts';
import type { ParsedStatement } from './statements/types.ts';

test("a statement's notes: the first 100, and how many more", () => {
  const statement: ParsedStatement = {
    lines: [{ line: 1, date: '2026-03-02', amount: '-1.00', description: 'A' }],
    errors: [],
    notes: Array.from({ length: 1000 }, (_, i) => `entry ${i + 1}: kept as one line`),
  };
  const plan = { bankAccountId: 'x', lines: [], newCount: 0, duplicateCount: 0 };
  const r = report(
    { format: 'camt053', statements: [statement] },
    { all: [{ statement, outcome: 'imported', reason: null }], mine: [statement], warnings: [] },
    plan,
    { name: 'a.xml', sha256: '0', size: 1, profile: null },
  );
  const notes = r.statements[0]!.notes;
  assert.equal(notes.length, 101);
  assert.equal(notes[99], 'entry 100: kept as one line');
  assert.equal(notes[100], 'and 900 more note(s) like these');
});
