// Runs the company's bank rules over bank lines: on import (afterIngest, the new lines) and
// when re-run (POST /api/bank-rules/run, the unreconciled lines). The rules are read once and
// compiled; the lines are read in one statement, coded in memory (bank-rules.match.ts), and
// written back grouped by identical coding (a handful of rules give a handful of codings), so
// 50,000 lines cost one read and a few updates, never a statement per line.
//
// A line reconciled, superseded, or coded by a person is never touched (the update says so
// again in its WHERE, so a person's coding saved meanwhile is not overwritten). A line a rule
// coded earlier is recoded from the rules as they are now, and cleared when none matches.
import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { type Coding, type CompiledRule, codeLine, compileRule } from './bank-rules.match.ts';
import { ruleToMatch, selectRules } from './bank-rules.service.ts';
import './bank-rules.tables.ts';

export interface RunScope {
  /** Only these lines (the import's new ones). */
  transactionIds?: readonly string[];
  bankAccountId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Only these rules, over lines uncoded or coded by one of them. */
  ruleIds?: readonly string[] | undefined;
}

export interface RunCounts {
  examined: number;
  coded: number;
  cleared: number;
  unchanged: number;
}

interface State {
  coded_by: 'rule' | null;
  rule_id: string | null;
  coded_account_id: string | null;
  coded_contact_id: string | null;
  coded_tax_code: string | null;
  coded_description: string | null;
  coded_cost_centre_id: string | null;
  coded_splits: Coding['splits'] | null;
}

const CLEARED: State = {
  coded_by: null,
  rule_id: null,
  coded_account_id: null,
  coded_contact_id: null,
  coded_tax_code: null,
  coded_description: null,
  coded_cost_centre_id: null,
  coded_splits: null,
};

/** A state in a fixed field order (jsonb reorders keys, so splits are listed field by field). */
function keyOf(s: State): string {
  const splits = s.coded_splits?.map((x) => [
    x.accountId,
    x.taxCode,
    String(x.percent),
    x.description ?? null,
    x.costCentreId ?? null,
  ]);
  return JSON.stringify([
    s.coded_by,
    s.rule_id,
    s.coded_account_id,
    s.coded_contact_id,
    s.coded_tax_code,
    s.coded_description,
    s.coded_cost_centre_id,
    splits ?? null,
  ]);
}

async function compiledRules(db: Tx, tenantId: string, companyId: string, ruleIds?: readonly string[]) {
  let q = selectRules(db, tenantId, companyId).where('is_active', '=', true);
  if (ruleIds) q = q.where('id', 'in', [...ruleIds]);
  return (await q.execute()).map((r) => compileRule(ruleToMatch(r)));
}

/** The lines of `scope` a rule may code: unreconciled, not superseded, not a person's. */
function linesOf(db: Tx, tenantId: string, companyId: string, scope: RunScope) {
  let q = db
    .selectFrom('bank_transactions')
    .select([
      'id',
      'bank_account_id',
      'description',
      'reference',
      'payee',
      'amount',
      'coded_by',
      'rule_id',
      'coded_account_id',
      'coded_contact_id',
      'coded_tax_code',
      'coded_description',
      'coded_cost_centre_id',
      'coded_splits',
    ])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('status', '=', 'unreconciled')
    .where('superseded_at', 'is', null)
    .where((eb) => eb.or([eb('coded_by', 'is', null), eb('coded_by', '=', 'rule')]));
  if (scope.transactionIds) q = q.where(sql<boolean>`id = any(${[...scope.transactionIds]}::uuid[])`);
  if (scope.bankAccountId) q = q.where('bank_account_id', '=', scope.bankAccountId);
  if (scope.from) q = q.where('date', '>=', scope.from);
  if (scope.to) q = q.where('date', '<=', scope.to);
  if (scope.ruleIds) {
    const ids = [...scope.ruleIds];
    q = q.where((eb) => eb.or([eb('coded_by', 'is', null), eb('rule_id', 'in', ids)]));
  }
  return q.execute();
}

const CHUNK = 10000;

/** Codes the lines of `scope` with the rules; answers what it did. */
export async function codeWithRules(
  db: Tx,
  tenantId: string,
  companyId: string,
  scope: RunScope,
  rules?: CompiledRule[],
): Promise<RunCounts> {
  const compiled = rules ?? (await compiledRules(db, tenantId, companyId, scope.ruleIds));
  const lines = await linesOf(db, tenantId, companyId, scope);
  const groups = new Map<string, { state: State; ids: string[] }>();
  const counts: RunCounts = { examined: lines.length, coded: 0, cleared: 0, unchanged: 0 };
  for (const l of lines) {
    const outcome = codeLine(compiled, {
      bankAccountId: l.bank_account_id,
      description: l.description,
      reference: l.reference,
      payee: l.payee,
      amount: l.amount,
    });
    const before: State = {
      coded_by: l.coded_by as 'rule' | null,
      rule_id: l.rule_id,
      coded_account_id: l.coded_account_id,
      coded_contact_id: l.coded_contact_id,
      coded_tax_code: l.coded_tax_code,
      coded_description: l.coded_description,
      coded_cost_centre_id: l.coded_cost_centre_id,
      coded_splits: (l.coded_splits as Coding['splits']) ?? null,
    };
    const after: State = outcome
      ? {
          coded_by: 'rule',
          rule_id: outcome.rule.id,
          coded_account_id: outcome.coding.accountId ?? null,
          coded_contact_id: outcome.coding.contactId ?? null,
          coded_tax_code: outcome.coding.taxCode ?? null,
          coded_description: outcome.coding.description ?? null,
          coded_cost_centre_id: outcome.coding.costCentreId ?? null,
          coded_splits: outcome.coding.splits ?? null,
        }
      : CLEARED;
    const key = keyOf(after);
    if (key === keyOf(before)) {
      counts.unchanged++;
      continue;
    }
    if (outcome) counts.coded++;
    else counts.cleared++;
    const g = groups.get(key) ?? { state: after, ids: [] };
    g.ids.push(l.id);
    groups.set(key, g);
  }
  for (const { state, ids } of groups.values()) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      await db
        .updateTable('bank_transactions')
        .set({
          ...state,
          coded_splits: state.coded_splits ? JSON.stringify(state.coded_splits) : null,
          rule_applied_at: state.rule_id ? sql<Date>`now()` : null,
        })
        .where('tenant_id', '=', tenantId)
        .where(sql<boolean>`id = any(${ids.slice(i, i + CHUNK)}::uuid[])`)
        .where('status', '=', 'unreconciled')
        .where((eb) => eb.or([eb('coded_by', 'is', null), eb('coded_by', '=', 'rule')]))
        .execute();
    }
  }
  return counts;
}

/** The rules over an import's new lines (afterIngest calls it; keep the signature). */
export async function applyBankRules(
  db: Tx,
  tenantId: string,
  companyId: string,
  transactionIds: readonly string[],
): Promise<void> {
  if (!transactionIds.length) return;
  const rules = await compiledRules(db, tenantId, companyId);
  // No rule: nothing to code, and a new line has no coding to clear.
  if (!rules.length) return;
  await codeWithRules(db, tenantId, companyId, { transactionIds }, rules);
}
