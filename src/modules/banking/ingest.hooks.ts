// What follows every import of bank lines (a statement file or a feed sync), in its
// transaction: the bank rules run over the new lines, then what is certain reconciles itself.
import type { Tx } from '../../platform/db/tenant.ts';
import { applyBankRules } from './bank-rules.apply.ts';
import { autoReconcile } from './reconciliation.auto.ts';

export async function afterIngest(
  db: Tx,
  tenantId: string,
  companyId: string,
  bankAccountId: string,
  transactionIds: readonly string[],
): Promise<void> {
  await applyBankRules(db, tenantId, companyId, transactionIds);
  await autoReconcile(db, tenantId, companyId, bankAccountId, transactionIds);
}
