// Undoing a match: what it recorded is reversed through the services that recorded it (an
// invoice payment with its excess credit, a bill payment), an entry it posted is reversed, an
// existing entry is only unlinked; the bank line is unreconciled again. The match stays, undone.

import { conflict, notFound } from '../../platform/http/problem.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import { reverseBillPayment } from '../bills/index.ts';
import { reversePayment } from '../invoices/index.ts';
import { ledgerCtxOf, reverse } from '../ledger/index.ts';
import { getMatch } from './reconciliation.read.ts';

export async function undoMatch(ctx: WorkCtx, id: string) {
  const m = await ctx.db
    .selectFrom('bank_matches')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!m) throw notFound('Match');
  if (m.undone_at) throw conflict('This match has been undone already', { code: 'ALREADY_REVERSED' });
  const { items } = await getMatch(ctx, id);
  // A transfer's entry the other account's bank line has claimed since cannot be reversed under it.
  const claimed = await ctx.db
    .selectFrom('bank_match_items')
    .select('match_id')
    .where('tenant_id', '=', ctx.tenantId)
    .where(
      'journal_entry_id',
      'in',
      items.map((i) => i.journalEntryId),
    )
    .where('match_id', '<>', id)
    .where('undone_at', 'is', null)
    .executeTakeFirst();
  if (claimed && (m.kind === 'create' || m.kind === 'transfer'))
    throw conflict(
      `The other bank account's line is matched to this entry (match ${claimed.match_id}); undo that first`,
    );
  for (const it of items) {
    if (it.invoicePaymentId) await reversePayment(ctx, it.invoiceId!, it.invoicePaymentId);
    else if (it.billPaymentId) await reverseBillPayment(ctx, it.billId!, it.billPaymentId);
    else if (m.kind === 'create' || m.kind === 'transfer')
      await reverse(ledgerCtxOf(ctx), it.journalEntryId, { description: 'Bank match undone' });
    // existing: the entry was there before the match and stays; only the link goes.
  }
  const now = ctx.deps.now();
  const p = ctx.principal;
  await ctx.db
    .updateTable('bank_matches')
    .set({ undone_at: now, undone_by: p.type === 'user' ? p.userId : p.type === 'api_key' ? p.keyId : null })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  await ctx.db
    .updateTable('bank_match_items')
    .set({ undone_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('match_id', '=', id)
    .execute();
  await ctx.db
    .updateTable('bank_transactions')
    .set({ status: 'unreconciled', reconciled_at: null })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', m.bank_transaction_id)
    .execute();
  return getMatch(ctx, id);
}
