// Reconciles, without a person, the bank lines with exactly one certain candidate.
import type { Tx } from '../../platform/db/tenant.ts';

/** Placeholder until reconciliation lands: nothing reconciles itself. */
export async function autoReconcile(
  _db: Tx,
  _tenantId: string,
  _companyId: string,
  _bankAccountId: string,
  _transactionIds: readonly string[],
): Promise<void> {}
