// The contacts module's public surface.
export { agedReport, NO_CONTACT_NAME } from './contacts.aging.ts';
// What the modules above this one use (index.ts is the only door: test/boundaries.test.ts).
export { CHANNEL_LABELS, mayMarket, recordConsent } from './contacts.consent.ts';
export { contactEvents } from './contacts.events.ts';
export { type ConsentRow, type ContactRow, consentsInForce } from './contacts.queries.ts';
export { AgedRow, ConsentChannel as ConsentChannelSchema } from './contacts.schemas.ts';
export { type Contact, contactName, createContact, getContact, retireContacts } from './contacts.service.ts';
export type { ConsentChannel } from './contacts.tables.ts';
export { CONTACT_TYPES, type ContactType } from './contacts.tables.ts';
