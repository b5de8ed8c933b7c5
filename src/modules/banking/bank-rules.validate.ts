// Checking what a rule (or a person) asks for, each problem a 400 naming its field: conditions
// whose operator fits their field, actions naming the company's own active accounts (not
// control accounts: a debtor or creditor is settled by matching its document, not by coding),
// contacts and cost centres, splits summing to exactly 100 percent.
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money } from '../../platform/money/money.ts';
import { assertCostCentre } from '../ledger/index.ts';
import type { Coding, Condition, Split } from './bank-rules.match.ts';

const TEXT_OPERATORS = ['contains', 'equals', 'wildcard'];
const AMOUNT_OPERATORS = ['equals', 'between', 'gt', 'lt'];

function amountOf(v: unknown, field: string): string {
  const ok = typeof v === 'number' || (typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v));
  if (!ok) throw badRequest(field, 'must be an amount (a number or a decimal string, not negative)');
  const m = money(v as string | number);
  if (m.isNegative() || !hasAtMostDecimals(m, 2))
    throw badRequest(field, 'must be an amount of at most two decimals, not negative (the size of the line)');
  return m.toFixed(2);
}

/** The conditions as stored: operators fitting their fields, amounts as decimal strings. */
export function checkConditions(conditions: readonly Condition[]): Condition[] {
  return conditions.map((c, i) => {
    const at = `conditions[${i}]`;
    if (c.field === 'amount') {
      if (!AMOUNT_OPERATORS.includes(c.operator))
        throw badRequest(`${at}.operator`, `amount takes ${AMOUNT_OPERATORS.join(', ')}`);
      if (c.operator === 'between') {
        if (c.value !== undefined) throw badRequest(`${at}.value`, 'between takes min and max, not value');
        const min = amountOf(c.min, `${at}.min`);
        const max = amountOf(c.max, `${at}.max`);
        if (money(max).lt(min)) throw badRequest(`${at}.max`, 'must not be below min');
        return { field: c.field, operator: c.operator, min, max };
      }
      return { field: c.field, operator: c.operator, value: amountOf(c.value, `${at}.value`) };
    }
    if (c.min !== undefined || c.max !== undefined)
      throw badRequest(`${at}.min`, 'min and max are for an amount between two figures');
    if (c.field === 'direction') {
      if (c.operator !== 'equals') throw badRequest(`${at}.operator`, 'direction takes equals');
      if (c.value !== 'in' && c.value !== 'out') throw badRequest(`${at}.value`, "must be 'in' or 'out'");
      return { field: c.field, operator: c.operator, value: c.value };
    }
    if (!TEXT_OPERATORS.includes(c.operator))
      throw badRequest(`${at}.operator`, `${c.field} takes ${TEXT_OPERATORS.join(', ')}`);
    if (typeof c.value !== 'string' || !c.value.trim())
      throw badRequest(`${at}.value`, 'must be the text (or pattern) to look for');
    return { field: c.field, operator: c.operator, value: c.value.trim() };
  });
}

/** An account a coding names: the company's, active, not a control account. */
async function assertCodingAccounts(db: Tx, tenantId: string, companyId: string, wanted: [string, string][]) {
  if (!wanted.length) return;
  const found = await db
    .selectFrom('accounts')
    .select(['id', 'name', 'is_active', 'is_control'])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where(
      'id',
      'in',
      wanted.map(([, id]) => id),
    )
    .execute();
  for (const [field, id] of wanted) {
    const a = found.find((f) => f.id === id);
    if (!a) throw badRequest(field, 'no such account in this company');
    if (a.is_control)
      throw badRequest(
        field,
        `${a.name} is a control account: match the invoice or bill in reconciliation instead`,
      );
    if (!a.is_active) throw badRequest(field, `${a.name} is deactivated`);
  }
}

async function assertContact(db: Tx, tenantId: string, id: string, field: string) {
  const c = await db
    .selectFrom('contacts')
    .select(['id', 'deleted_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!c || c.deleted_at) throw badRequest(field, 'no such contact');
}

function checkSplits(splits: readonly Split[], at: string): Split[] {
  let total = money(0);
  const out = splits.map((s, i) => {
    const p = money(s.percent);
    if (!p.gt(0) || p.gt(100) || !hasAtMostDecimals(p, 4))
      throw badRequest(`${at}[${i}].percent`, 'must be above 0 and at most 100, at most four decimals');
    total = total.plus(p);
    return {
      accountId: s.accountId,
      taxCode: s.taxCode,
      percent: p.toString(),
      ...(s.description ? { description: s.description } : {}),
      ...(s.costCentreId ? { costCentreId: s.costCentreId } : {}),
    };
  });
  if (!total.eq(100)) throw badRequest(at, `the percentages sum to ${total.toString()}, not exactly 100`);
  return out;
}

/**
 * A coding (a rule's actions, or a person's coding of a line) checked and normalised: unset
 * fields dropped, percents as decimal strings. `prefix` is the body's field ('actions' or '').
 */
export async function checkCoding(
  db: Tx,
  tenantId: string,
  companyId: string,
  coding: Coding,
  prefix: string,
): Promise<Coding> {
  const at = (f: string) => (prefix ? `${prefix}.${f}` : f);
  const out: Coding = {};
  const accounts: [string, string][] = [];
  if (coding.splits) {
    for (const f of ['accountId', 'taxCode', 'costCentreId'] as const)
      if (coding[f]) throw badRequest(at(f), 'give either splits or accountId, taxCode and costCentreId');
    out.splits = checkSplits(coding.splits, at('splits'));
    for (const [i, s] of out.splits.entries()) {
      accounts.push([`${at('splits')}[${i}].accountId`, s.accountId]);
      if (s.costCentreId)
        await assertCostCentre(db, tenantId, companyId, s.costCentreId, `${at('splits')}[${i}].costCentreId`);
    }
  }
  if (coding.accountId) {
    out.accountId = coding.accountId;
    accounts.push([at('accountId'), coding.accountId]);
  }
  await assertCodingAccounts(db, tenantId, companyId, accounts);
  if (coding.taxCode) out.taxCode = coding.taxCode;
  if (coding.costCentreId) {
    await assertCostCentre(db, tenantId, companyId, coding.costCentreId, at('costCentreId'));
    out.costCentreId = coding.costCentreId;
  }
  if (coding.contactId) {
    await assertContact(db, tenantId, coding.contactId, at('contactId'));
    out.contactId = coding.contactId;
  }
  if (coding.description?.trim()) out.description = coding.description.trim();
  return out;
}
