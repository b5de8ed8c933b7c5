// The events of sales documents and the money against them (announce.ts says when each goes;
// customer-credits.ts and refunds.ts emit the last two). The data is the document exactly as
// GET /api/invoices/{id} answers it; a payment, credit or refund as its own GET answers it.
import { defineEvent, type EventDataOf } from '../../platform/events/event-types.ts';
import { CustomerCredit, Refund } from './customer-credits.schemas.ts';
import { Invoice } from './invoices.schemas.ts';
import { Payment } from './payments.schemas.ts';

const module = 'invoices';

export const invoiceEvents = [
  defineEvent({
    type: 'invoice.paid',
    module,
    description: "A payment settles the invoice's whole balance",
    data: Invoice,
  }),
  defineEvent({
    type: 'invoice.created',
    module,
    description:
      'A sales document is created (a draft): typed in, converted from another, or made by a recurring schedule',
    data: Invoice,
  }),
  defineEvent({
    type: 'invoice.updated',
    module,
    description:
      'A sales document changes otherwise than by its creation, release or void: an edit, a quote accepted, declined or converted, a payment or allocation made or reversed, a send, a draft deleted (deletedAt set)',
    data: Invoice,
  }),
  defineEvent({
    type: 'invoice.released',
    module,
    description:
      'A sales document is released (numbered draft to open, posted to the ledger where its type posts)',
    data: Invoice,
  }),
  defineEvent({
    type: 'invoice.voided',
    module,
    description: 'A released sales document is voided (its entry reversed)',
    data: Invoice,
  }),
  defineEvent({
    type: 'payment.recorded',
    module,
    description: 'A payment is recorded against an invoice or debit note (data: the payment, with invoiceId)',
    data: Payment,
  }),
  defineEvent({
    type: 'customer_credit.created',
    module,
    description:
      'A customer credit arises: an overpayment, a deposit applied to a smaller invoice, an advance payment (data: the credit as GET /api/customer-credits/{id} answers it)',
    data: CustomerCredit,
  }),
  defineEvent({
    type: 'refund.recorded',
    module,
    description:
      'Money is paid back out of a customer credit, credit note or deposit (data: the refund, with sourceId)',
    data: Refund,
  }),
] as const;

declare module '../../platform/events/outbox.ts' {
  interface EventData extends EventDataOf<typeof invoiceEvents> {}
}
