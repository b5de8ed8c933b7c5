// The contacts module's public surface.
import type { TSchema } from 'typebox';
import { Contact } from './contacts.schemas.ts';
import { CONTACT_CREATED, CONTACT_UPDATED } from './contacts.service.ts';

export { agedReport, NO_CONTACT_NAME } from './contacts.aging.ts';
export { recordConsent } from './contacts.consent.ts';
export { AgedRow } from './contacts.schemas.ts';
export { type Contact, contactName, createContact, getContact, retireContacts } from './contacts.service.ts';
export { CONTACT_TYPES, type ContactType } from './contacts.tables.ts';

/** The contacts module's events and the schema of each one's data (the contact as GET answers it). */
export const contactEventSchemas: Record<string, TSchema> = {
  [CONTACT_CREATED]: Contact,
  [CONTACT_UPDATED]: Contact,
};

// What the modules above this one use (index.ts is the only door: test/boundaries.test.ts).
export { CHANNEL_LABELS, mayMarket } from './contacts.consent.ts';
export { type ConsentRow, type ContactRow, consentsInForce } from './contacts.queries.ts';
export { ConsentChannel as ConsentChannelSchema } from './contacts.schemas.ts';
export type { ConsentChannel } from './contacts.tables.ts';
