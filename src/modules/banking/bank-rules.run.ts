// POST /api/bank-rules/run: the rules again over the unreconciled lines (after a rule was added
// or changed), narrowed by bank account, dates or rules.

import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import { assertBankAccount } from './bank-accounts.service.ts';
import { codeWithRules, type RunCounts } from './bank-rules.apply.ts';
import type { BankRuleRun } from './bank-rules.schemas.ts';
import { selectRules } from './bank-rules.service.ts';

export async function runBankRules(ctx: TenantCtx, input: Static<typeof BankRuleRun>): Promise<RunCounts> {
  const companyId = companyOf(ctx);
  if (input.from && input.to && input.to < input.from) throw badRequest('to', 'must not be before from');
  if (input.bankAccountId) await assertBankAccount(ctx.db, ctx.tenantId, companyId, input.bankAccountId);
  if (input.ruleIds) {
    const live = await selectRules(ctx.db, ctx.tenantId, companyId)
      .where('id', 'in', input.ruleIds)
      .execute();
    for (const [i, id] of input.ruleIds.entries()) {
      const r = live.find((x) => x.id === id.toLowerCase());
      if (!r) throw badRequest(`ruleIds[${i}]`, 'no such bank rule in this company');
      if (!r.is_active) throw badRequest(`ruleIds[${i}]`, `${r.name} is deactivated`);
    }
  }
  return codeWithRules(ctx.db, ctx.tenantId, companyId, {
    bankAccountId: input.bankAccountId,
    from: input.from,
    to: input.to,
    ruleIds: input.ruleIds,
  });
}
