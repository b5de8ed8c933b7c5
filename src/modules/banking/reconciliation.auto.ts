// Reconciles, without a person, the bank lines with exactly one certain candidate: the exact
// amount due and the document's number in the reference or description. Two certain candidates,
// or one that another line of the same run also claims, wait for a person.
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import { openDues } from './reconciliation.candidates.ts';
import { acceptMatch } from './reconciliation.match.ts';
import { suggestionsOf, unreconciled } from './reconciliation.suggest.ts';

/** Lines ranked at a time: a statement of 250,000 lines is loaded and ranked a thousand lines at a time. */
const CHUNK = 1000;

/** Called after every import, in its transaction (ctx.principal may be the system). */
export async function autoReconcile(
  ctx: WorkCtx,
  bankAccountId: string,
  transactionIds?: readonly string[],
): Promise<{ considered: number; reconciled: number; matchIds: string[] }> {
  const companyId = companyOf(ctx);
  const certain: Array<{ line: Line; s: Suggestion }> = [];
  let considered = 0;
  // Certain needs the exact amount due: only lines of such an amount are loaded and ranked.
  const dues = await openDues(ctx.db, ctx.tenantId, companyId);
  if (!dues.in.size && !dues.out.size) return { considered: 0, reconciled: 0, matchIds: [] };
  for await (const lines of chunksOf(ctx, bankAccountId, dues, transactionIds)) {
    considered += lines.length;
    const ranked = await suggestionsOf(ctx.db, ctx.tenantId, companyId, bankAccountId, lines);
    for (const r of ranked) {
      const only = r.suggestions.filter((s) => s.certain);
      if (only.length === 1) certain.push({ line: r.line, s: only[0]! });
    }
  }
  // A document two lines are certain of (across the whole import) waits for a person.
  const docOf = (s: Suggestion) => s.accept.invoices?.[0]?.invoiceId ?? s.accept.bills?.[0]?.billId;
  const claims = new Map<string, number>();
  for (const c of certain) claims.set(docOf(c.s)!, (claims.get(docOf(c.s)!) ?? 0) + 1);
  const matchIds: string[] = [];
  for (const { line, s } of certain) {
    if (claims.get(docOf(s)!)! > 1) continue;
    const { match } = await acceptMatch(ctx, { bankTransactionId: line.id, ...s.accept }, true);
    matchIds.push(match.id);
  }
  return { considered, reconciled: matchIds.length, matchIds };
}

type Line = Awaited<ReturnType<typeof unreconciled>>[number];
type Suggestion = Awaited<ReturnType<typeof suggestionsOf>>[number]['suggestions'][number];

/**
 * The lines to consider, a chunk at a time in (date, id) order: those of the ids given (all of
 * them in one array parameter) or every unreconciled line of the account, of the amounts due only.
 */
async function* chunksOf(
  ctx: WorkCtx,
  bankAccountId: string,
  dues: { in: Set<string>; out: Set<string> },
  ids?: readonly string[],
) {
  const companyId = companyOf(ctx);
  const amounts = { in: [...dues.in], out: [...dues.out] };
  let after: { date: string; id: string } | undefined;
  for (;;) {
    const lines = await unreconciled(ctx.db, ctx.tenantId, companyId, bankAccountId, ids, {
      ...(after ? { after } : {}),
      limit: CHUNK,
      amounts,
    });
    if (!lines.length) return;
    yield lines;
    const last = lines.at(-1)!;
    after = { date: last.date, id: last.id };
  }
}
