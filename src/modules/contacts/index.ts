// The contacts module's public surface.
export { agedReport, NO_CONTACT_NAME } from './contacts.aging.ts';
export { recordConsent } from './contacts.consent.ts';
export { contactEvents } from './contacts.events.ts';
export { contactRoutes } from './contacts.routes.ts';
export { AgedRow } from './contacts.schemas.ts';
export { type Contact, contactName, createContact, getContact, retireContacts } from './contacts.service.ts';
export { CONTACT_TYPES, type ContactType } from './contacts.tables.ts';
