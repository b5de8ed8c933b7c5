// Reconciles, without a person, the bank lines with exactly one certain candidate: the exact
// amount due and the document's number in the reference or description. Two certain candidates,
// or one that another line of the same run also claims, wait for a person.
import type { SalesCtx } from '../invoices/invoices.service.ts';
import { acceptMatch } from './reconciliation.match.ts';
import { suggestionsOf, unreconciled } from './reconciliation.suggest.ts';

/** Called after every import, in its transaction (ctx.principal may be the system). */
export async function autoReconcile(
  ctx: SalesCtx,
  bankAccountId: string,
  transactionIds?: readonly string[],
): Promise<{ considered: number; reconciled: number; matchIds: string[] }> {
  const companyId = ctx.companyId!;
  const lines = await unreconciled(ctx.db, ctx.tenantId, companyId, bankAccountId, transactionIds);
  const ranked = await suggestionsOf(ctx.db, ctx.tenantId, companyId, bankAccountId, lines);
  const certain = ranked
    .map((r) => ({ line: r.line, only: r.suggestions.filter((s) => s.certain) }))
    .filter((r) => r.only.length === 1)
    .map((r) => ({ line: r.line, s: r.only[0]! }));
  const docOf = (s: (typeof certain)[number]['s']) =>
    s.accept.invoices?.[0]?.invoiceId ?? s.accept.bills?.[0]?.billId;
  const claims = new Map<string, number>();
  for (const c of certain) claims.set(docOf(c.s)!, (claims.get(docOf(c.s)!) ?? 0) + 1);
  const matchIds: string[] = [];
  for (const { line, s } of certain) {
    if (claims.get(docOf(s)!)! > 1) continue;
    const { match } = await acceptMatch(ctx, { bankTransactionId: line.id, ...s.accept }, true);
    matchIds.push(match.id);
  }
  return { considered: lines.length, reconciled: matchIds.length, matchIds };
}
