// After money or credit moves on a receivable: its stored status follows what is still due
// (open → partially paid → paid, and back when a payment is reversed), and the first time a
// payment settles the whole balance, invoice.paid is emitted in the same transaction.

import { emit } from '../../platform/events/outbox.ts';
import { money } from '../../platform/money/money.ts';
import { amountDue, type InvoiceRow, RECEIVABLE_TYPES, settlements } from './invoices.queries.ts';
import { getInvoice, type SalesCtx } from './invoices.service.ts';

export async function settle(ctx: SalesCtx, row: InvoiceRow, cause: 'payment' | 'credit' | 'reversal') {
  if (!RECEIVABLE_TYPES.has(row.document_type) || row.status === 'void' || row.status === 'draft') return;
  const s = (await settlements(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  const due = money(amountDue(row, s));
  const moved = money(s.paid).plus(s.credited);
  const status = due.lessThanOrEqualTo(0) ? 'paid' : moved.isZero() ? 'open' : 'partially_paid';
  if (status === row.status) return;
  await ctx.db
    .updateTable('invoices')
    .set({ status, updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
  if (status === 'paid' && cause === 'payment') {
    // The data has the shape GET /api/invoices/{id} answers.
    await emit(ctx, 'invoice.paid', await getInvoice(ctx, row.id), row.company_id);
  }
}
