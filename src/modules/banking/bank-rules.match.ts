// Matching bank lines against rules, and what the matching rules set: pure, no database, so
// that a run over 50,000 lines is one read of the lines, this loop, and a few bulk updates.
// Each rule is compiled once (its wildcards into anchored patterns, its amounts into decimals).
import type { Money } from '../../platform/money/money.ts';
import { money } from '../../platform/money/money.ts';

export type ConditionField = 'description' | 'reference' | 'payee' | 'amount' | 'direction';
export type ConditionOperator = 'contains' | 'equals' | 'wildcard' | 'between' | 'gt' | 'lt';

/** A condition as stored (amounts as decimal strings). */
export interface Condition {
  field: ConditionField;
  operator: ConditionOperator;
  value?: string | number | undefined;
  min?: string | number | undefined;
  max?: string | number | undefined;
}

export interface Split {
  accountId: string;
  taxCode: string;
  percent: string;
  description?: string | null | undefined;
  costCentreId?: string | null | undefined;
}

/** A line's coding, or a rule's actions (fields absent or null are unset). */
export interface Coding {
  accountId?: string | null | undefined;
  contactId?: string | null | undefined;
  taxCode?: string | null | undefined;
  description?: string | null | undefined;
  costCentreId?: string | null | undefined;
  splits?: Split[] | null | undefined;
}

/** What of a bank line the conditions test. */
export interface LineFacts {
  bankAccountId: string;
  description: string;
  reference: string | null;
  payee: string | null;
  /** Signed: + in, - out. */
  amount: string;
}

export interface RuleToMatch {
  id: string;
  name: string;
  match: 'all' | 'any';
  conditions: Condition[];
  actions: Coding;
  stopProcessing: boolean;
  bankAccountId: string | null;
}

interface Prepared {
  facts: LineFacts;
  /** The size of the line, whatever its direction. */
  size: Money;
  direction: 'in' | 'out';
  text: Record<'description' | 'reference' | 'payee', string>;
}

type Test = (l: Prepared) => boolean;

/** A pattern of * (any run) and ? (one character) as an anchored, case-insensitive RegExp. */
export function wildcardPattern(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

function compileCondition(c: Condition): Test {
  if (c.field === 'direction') return (l) => l.direction === c.value;
  if (c.field === 'amount') {
    if (c.operator === 'between') {
      const min = money(c.min!);
      const max = money(c.max!);
      return (l) => l.size.gte(min) && l.size.lte(max);
    }
    const v = money(c.value!);
    if (c.operator === 'gt') return (l) => l.size.gt(v);
    if (c.operator === 'lt') return (l) => l.size.lt(v);
    return (l) => l.size.eq(v);
  }
  const field = c.field;
  const v = String(c.value).toLowerCase();
  if (c.operator === 'contains') return (l) => l.text[field].includes(v);
  if (c.operator === 'equals') return (l) => l.text[field] === v.trim();
  const re = wildcardPattern(String(c.value));
  return (l) => re.test(l.text[field]);
}

export interface CompiledRule {
  rule: RuleToMatch;
  test: Test;
}

export function compileRule(rule: RuleToMatch): CompiledRule {
  const tests = rule.conditions.map(compileCondition);
  const all = rule.match === 'all';
  return {
    rule,
    test: (l) =>
      (rule.bankAccountId === null || rule.bankAccountId === l.facts.bankAccountId) &&
      (all ? tests.every((t) => t(l)) : tests.some((t) => t(l))),
  };
}

function prepare(facts: LineFacts): Prepared {
  const amount = money(facts.amount);
  return {
    facts,
    size: amount.abs(),
    direction: amount.isNegative() ? 'out' : 'in',
    text: {
      description: facts.description.trim().toLowerCase(),
      reference: (facts.reference ?? '').trim().toLowerCase(),
      payee: (facts.payee ?? '').trim().toLowerCase(),
    },
  };
}

const set = (v: unknown) => v !== undefined && v !== null;

/**
 * Fills what `coding` leaves unset from a rule's actions. Splits take the place of the account,
 * tax code and cost centre together: a rule's splits fill only when none of them is set, and
 * once split, a later rule's account, tax code or cost centre do not apply.
 */
function fill(coding: Coding, actions: Coding) {
  if (set(actions.splits)) {
    if (!set(coding.accountId) && !set(coding.taxCode) && !set(coding.costCentreId) && !set(coding.splits))
      coding.splits = actions.splits!;
  } else if (!set(coding.splits)) {
    if (set(actions.accountId) && !set(coding.accountId)) coding.accountId = actions.accountId!;
    if (set(actions.taxCode) && !set(coding.taxCode)) coding.taxCode = actions.taxCode!;
    if (set(actions.costCentreId) && !set(coding.costCentreId)) coding.costCentreId = actions.costCentreId!;
  }
  if (set(actions.contactId) && !set(coding.contactId)) coding.contactId = actions.contactId!;
  if (set(actions.description) && !set(coding.description)) coding.description = actions.description!;
}

export interface Outcome {
  /** The first rule that matched: the one the line says touched it. */
  rule: RuleToMatch;
  coding: Coding;
}

/**
 * The rules (already in priority order) over one line: the first that matches codes it; a
 * stop-processing rule ends there, any other lets later matching rules fill what is unset.
 * null when no rule matches.
 */
export function codeLine(rules: readonly CompiledRule[], facts: LineFacts): Outcome | null {
  const line = prepare(facts);
  let first: RuleToMatch | null = null;
  const coding: Coding = {};
  for (const r of rules) {
    if (!r.test(line)) continue;
    first ??= r.rule;
    fill(coding, r.rule.actions);
    if (r.rule.stopProcessing) break;
  }
  return first ? { rule: first, coding } : null;
}
