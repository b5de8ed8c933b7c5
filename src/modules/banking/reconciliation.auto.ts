// Reconciles, without a person, the bank lines with exactly one certain candidate.
import type { IngestCtx } from './ingest.hooks.ts';

/** Placeholder until reconciliation lands: nothing reconciles itself. */
export async function autoReconcile(
  _ctx: IngestCtx,
  _bankAccountId: string,
  _transactionIds: readonly string[],
): Promise<void> {}
