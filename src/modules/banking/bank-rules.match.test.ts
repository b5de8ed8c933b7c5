// Matching bank lines against rules, without a database: wildcards and amounts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { codeLine, compileRule, type RuleToMatch, wildcardPattern } from './bank-rules.match.ts';

describe('matching (pure)', () => {
  test('a wildcard is the whole field: * any run, ? one character, everything else literal, any case', () => {
    assert.ok(wildcardPattern('*telkom*').test('DEBIT ORDER TELKOM MOBILE'));
    assert.ok(!wildcardPattern('telkom*').test('DEBIT ORDER TELKOM MOBILE'));
    assert.ok(wildcardPattern('FNB ??? FEE').test('fnb atm fee'));
    assert.ok(!wildcardPattern('FNB ??? FEE').test('FNB CASH FEE'));
    // A dot, brackets or a plus are text, not a regular expression.
    assert.ok(!wildcardPattern('A.B').test('AXB'));
    assert.ok(wildcardPattern('(1+1)*').test('(1+1) = 2'));
  });

  test('amounts compare the size of the line; between includes both ends', () => {
    const rule = (conditions: RuleToMatch['conditions']): RuleToMatch => ({
      id: 'r',
      name: 'r',
      match: 'all',
      conditions,
      actions: { description: 'hit' },
      stopProcessing: true,
      bankAccountId: null,
    });
    const hits = (r: RuleToMatch, amounts: string[]) =>
      amounts.map(
        (amount) =>
          codeLine([compileRule(r)], {
            bankAccountId: 'a',
            description: 'x',
            reference: null,
            payee: null,
            amount,
          }) !== null,
      );
    const between = rule([{ field: 'amount', operator: 'between', min: '100.00', max: '200.00' }]);
    assert.deepEqual(hits(between, ['-99.99', '100.00', '-200.00', '200.01']), [false, true, true, false]);
    const outOver = rule([
      { field: 'amount', operator: 'gt', value: '150.00' },
      { field: 'direction', operator: 'equals', value: 'out' },
    ]);
    assert.deepEqual(hits(outOver, ['-150.00', '-150.01', '150.01']), [false, true, false]);
    assert.deepEqual(hits(rule([{ field: 'amount', operator: 'lt', value: '10' }]), ['9.99', '-10.00']), [
      true,
      false,
    ]);
    assert.deepEqual(
      hits(rule([{ field: 'amount', operator: 'equals', value: '42.50' }]), ['-42.5', '42.51']),
      [true, false],
    );
  });
});
