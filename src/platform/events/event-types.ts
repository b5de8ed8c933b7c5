// The events a webhook may subscribe to (the spec's event table), with the module whose
// read access a subscriber needs: a person must be allowed to view it, a key must hold
// `<module>:read`. `webhook.test` is sent only by POST /api/webhooks/{id}/test.
import type { ModuleName } from '../auth/permissions.ts';

export interface EventTypeInfo {
  type: string;
  module: ModuleName;
  description: string;
}

export const EVENT_TYPES: EventTypeInfo[] = [
  {
    type: 'logistics.stop.status_changed',
    module: 'logistics',
    description:
      'A driver sets off for or arrives at a stop, a proof records its outcome, or a cancelled trip releases it',
  },
  {
    type: 'logistics.proof.recorded',
    module: 'logistics',
    description: 'A proof of delivery is recorded (once per proof)',
  },
  { type: 'logistics.trip.dispatched', module: 'logistics', description: 'A trip is handed to the driver' },
  { type: 'logistics.trip.completed', module: 'logistics', description: 'A trip is closed' },
  { type: 'invoice.paid', module: 'invoices', description: "A payment settles the invoice's whole balance" },
  {
    type: 'invoice.created',
    module: 'invoices',
    description:
      'A sales document is created (a draft): typed in, converted from another, or made by a recurring schedule',
  },
  {
    type: 'invoice.updated',
    module: 'invoices',
    description:
      'A sales document changes otherwise than by its creation, release or void: an edit, a quote accepted, declined or converted, a payment or allocation made or reversed, a send, a draft deleted (deletedAt set)',
  },
  {
    type: 'invoice.released',
    module: 'invoices',
    description:
      'A sales document is released (numbered draft to open, posted to the ledger where its type posts)',
  },
  {
    type: 'invoice.voided',
    module: 'invoices',
    description: 'A released sales document is voided (its entry reversed)',
  },
  {
    type: 'payment.recorded',
    module: 'invoices',
    description: 'A payment is recorded against an invoice or debit note (data: the payment, with invoiceId)',
  },
  {
    type: 'customer_credit.created',
    module: 'invoices',
    description:
      'A customer credit arises: an overpayment, a deposit applied to a smaller invoice, an advance payment (data: the credit as GET /api/customer-credits/{id} answers it)',
  },
  {
    type: 'refund.recorded',
    module: 'invoices',
    description:
      'Money is paid back out of a customer credit, credit note or deposit (data: the refund, with sourceId)',
  },
  { type: 'payroll.run.paid', module: 'payroll', description: 'A pay run is marked paid' },
  { type: 'bill.rejected', module: 'expenses', description: 'An approver rejects a supplier bill' },
  { type: 'expense.rejected', module: 'expenses', description: 'An approver rejects an expense claim' },
  // Contacts (one book per tenant: the events carry no company). data: the contact as
  // GET /api/contacts/{id} answers it.
  { type: 'contact.created', module: 'contacts', description: 'A contact is created' },
  {
    type: 'contact.updated',
    module: 'contacts',
    description:
      'A contact is changed, deactivated (isActive false) or deleted (deletedAt set); data is the contact after the change',
  },
];

export const TEST_EVENT_TYPE = 'webhook.test';

const BY_TYPE = new Map(EVENT_TYPES.map((e) => [e.type, e]));

export function eventTypeInfo(type: string): EventTypeInfo | undefined {
  return BY_TYPE.get(type);
}
