// The events integrators keep sales documents in step by, each emitted through the outbox in
// the transaction of the change it announces (so it exists exactly when the change committed):
//
//   invoice.created   a document is created (POST, a conversion's new document, a recurring run)
//   invoice.updated   any later change that is not one of those below: an edit, a quote accepted,
//                     declined or converted, a payment or allocation (made or reversed) or a
//                     bad debt written off moving what is paid and due, a send (sentAt), a draft deleted (deletedAt set)
//   invoice.released  released (draft → open, posted)
//   invoice.voided    voided: with its reversing entry, or (a released invoice or debit note) by the
//                     credit note it names, which is announced first (invoice.created, invoice.released)
//   invoice.paid      a payment settles the whole balance (besides invoice.updated)
//   payment.recorded  a payment is recorded (besides invoice.updated)
//   customer_credit.created  a customer credit arises (an overpayment, a deposit's excess, an
//                     advance payment; customer-credits.ts)
//   refund.recorded   money is paid back out of a credit, credit note or deposit (refunds.ts)
//
// The data is the document exactly as GET /api/invoices/{id} answers it (a payment: as
// POST /api/invoices/{id}/payments answers it, invoiceId included).

import { sql } from 'kysely';
import { emit } from '../../platform/events/outbox.ts';
import { companyOf, today, type WorkCtx } from '../../platform/work/context.ts';
import { findInvoice, type Invoice } from './invoices.queries.ts';

export type DocumentEvent =
  | 'invoice.created'
  | 'invoice.updated'
  | 'invoice.released'
  | 'invoice.voided'
  | 'invoice.paid';

export async function announce(ctx: WorkCtx, type: DocumentEvent, invoice: Invoice): Promise<void> {
  await emit(ctx, type, invoice, invoice.companyId);
}

/** Loads the document (a deleted draft too) as GET answers it, and announces it. */
export async function announceById(ctx: WorkCtx, type: DocumentEvent, id: string): Promise<Invoice> {
  const invoice = await findInvoice(ctx.db, ctx.tenantId, companyOf(ctx), id, today(ctx), {
    includeDeleted: true,
  });
  if (!invoice) throw new Error(`document ${id} vanished inside its own transaction`);
  await announce(ctx, type, invoice);
  return invoice;
}

/**
 * A document another one changed (a credit note or deposit applied elsewhere, or no longer):
 * its row is written so that its updatedAt moves (touch_updated_at), and it is announced.
 */
export async function touchAndAnnounce(ctx: WorkCtx, id: string): Promise<void> {
  await ctx.db
    .updateTable('invoices')
    .set({ updated_at: sql`now()` })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  await announceById(ctx, 'invoice.updated', id);
}
