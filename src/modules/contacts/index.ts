// The contacts module's public surface.
import type { TSchema } from 'typebox';
import { Contact } from './contacts.schemas.ts';
import { CONTACT_CREATED, CONTACT_UPDATED } from './contacts.service.ts';

export { agedReport, NO_CONTACT_NAME } from './contacts.aging.ts';
export { recordConsent } from './contacts.consent.ts';
export { contactRoutes } from './contacts.routes.ts';
export { AgedRow } from './contacts.schemas.ts';
export { type Contact, contactName, createContact, getContact, retireContacts } from './contacts.service.ts';
export { CONTACT_TYPES, type ContactType } from './contacts.tables.ts';

/** The contacts module's events and the schema of each one's data (the contact as GET answers it). */
export const contactEventSchemas: Record<string, TSchema> = {
  [CONTACT_CREATED]: Contact,
  [CONTACT_UPDATED]: Contact,
};
