// The contacts module's events (one book per tenant: the events carry no company). The data is
// the contact as GET /api/contacts/{id} answers it.
import { defineEvent, type EventDataOf } from '../../platform/events/event-types.ts';
import { Contact } from './contacts.schemas.ts';

export const contactEvents = [
  defineEvent({
    type: 'contact.created',
    module: 'contacts',
    description: 'A contact is created',
    data: Contact,
  }),
  defineEvent({
    type: 'contact.updated',
    module: 'contacts',
    description:
      'A contact is changed, deactivated (isActive false) or deleted (deletedAt set); data is the contact after the change',
    data: Contact,
  }),
] as const;

declare module '../../platform/events/outbox.ts' {
  interface EventData extends EventDataOf<typeof contactEvents> {}
}
