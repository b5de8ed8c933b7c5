// Runs the company's bank rules over bank lines (on import, and when re-run).
import type { Tx } from '../../platform/db/tenant.ts';

/** Placeholder until the bank rules land: no rule touches anything. */
export async function applyBankRules(
  _db: Tx,
  _tenantId: string,
  _companyId: string,
  _transactionIds: readonly string[],
): Promise<void> {}
