// What every module checks of a document before it posts it: the bank account money moves
// through (a payment, a refund, a reimbursement) and the document's currency. The ledger's, as
// both are questions about the chart and the one currency the ledger keeps; sales documents,
// bills, expense claims and payroll ask them here.
import { badRequest, unprocessable } from '../../platform/http/problem.ts';
import type { WorkCtx } from '../../platform/work/context.ts';
import { ledgerCtxOf, systemAccount } from './posting.ts';

/**
 * The bank account a payment moves through: the one named (400 on bankAccountId unless it is
 * an active bank account of the company), else the chart's Bank.
 */
export async function bankAccount(
  ctx: Pick<WorkCtx, 'db' | 'tenantId' | 'principal'>,
  companyId: string,
  id: string | undefined,
): Promise<string> {
  if (!id) return systemAccount(ledgerCtxOf(ctx), companyId, 'bank');
  const a = await ctx.db
    .selectFrom('accounts')
    .select(['subtype', 'is_active'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (a?.subtype !== 'bank') throw badRequest('bankAccountId', 'no such bank account in this company');
  if (!a.is_active) throw badRequest('bankAccountId', 'the bank account is deactivated');
  return id;
}

/**
 * 422 when `currency` is not the company's base currency: the ledger keeps one currency, so a
 * document in another cannot be posted yet (`what` names it in the message).
 */
export async function assertBaseCurrency(
  ctx: Pick<WorkCtx, 'db' | 'tenantId'>,
  companyId: string,
  currency: string,
  what: string,
): Promise<void> {
  const base = await ctx.db
    .selectFrom('companies')
    .select('base_currency')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  if (currency !== base.base_currency.trim()) {
    throw unprocessable(
      `A ${currency} ${what} cannot be posted yet: the ledger keeps ${base.base_currency.trim()} only. ` +
        'Keep it as a draft or issue it in the base currency.',
      ['FOREIGN_CURRENCY_POSTING_UNSUPPORTED'],
    );
  }
}
