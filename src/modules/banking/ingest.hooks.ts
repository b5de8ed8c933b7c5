// What follows every import of bank lines (a statement file or a feed sync), in its
// transaction: the bank rules run over the new lines, then what is certain reconciles itself.
import type { Tx } from '../../platform/db/tenant.ts';
import type { AppDeps, TenantCtx } from '../../platform/http/context.ts';
import { applyBankRules } from './bank-rules.apply.ts';
import { autoReconcile } from './reconciliation.auto.ts';

/** The import's transaction and who imports (a job acting for the tenant is the system). */
export interface IngestCtx {
  db: Tx;
  tenantId: string;
  companyId: string;
  deps: AppDeps;
  principal: TenantCtx['principal'] | { type: 'system' };
}

export async function afterIngest(
  ctx: IngestCtx,
  bankAccountId: string,
  transactionIds: readonly string[],
): Promise<void> {
  await applyBankRules(ctx.db, ctx.tenantId, ctx.companyId, transactionIds);
  await autoReconcile(ctx, bankAccountId, transactionIds);
}
