// After money or credit moves on a receivable: its stored status follows what is still due
// (open → partially paid → paid, and back when a payment is reversed), the row is written
// whether or not the status changed (what is paid and due did: its updatedAt moves), and
// invoice.updated announces it. The first time a payment settles the whole balance,
// invoice.paid is emitted too, in the same transaction.

import { money } from '../../platform/money/money.ts';
import type { WorkCtx } from '../../platform/work/context.ts';
import { announce } from './announce.ts';
import { amountDue, type InvoiceRow, RECEIVABLE_TYPES, settlements } from './invoices.queries.ts';
import { getInvoice } from './invoices.service.ts';

export async function settle(
  ctx: WorkCtx,
  row: InvoiceRow,
  cause: 'payment' | 'credit' | 'reversal' | 'write_off',
) {
  if (!RECEIVABLE_TYPES.has(row.document_type) || row.status === 'void' || row.status === 'draft') return;
  const s = (await settlements(ctx.db, ctx.tenantId, [row.id])).get(row.id)!;
  const due = money(amountDue(row, s));
  const moved = money(s.paid).plus(s.credited);
  const writtenOff = money(s.writtenOff ?? 0);
  // Nothing due: paid, or written off when a bad debt took (the rest of) it.
  const status = due.lessThanOrEqualTo(0)
    ? writtenOff.isZero()
      ? 'paid'
      : 'written_off'
    : moved.isZero() // a part written off is not a payment: the rest is open as before
      ? 'open'
      : 'partially_paid';
  await ctx.db
    .updateTable('invoices')
    .set({ status })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
  const invoice = await getInvoice(ctx, row.id);
  await announce(ctx, 'invoice.updated', invoice);
  if (status === 'paid' && status !== row.status && cause === 'payment') {
    await announce(ctx, 'invoice.paid', invoice);
  }
}
