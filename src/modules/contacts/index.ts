// The contacts module's public surface.
export { contactRoutes } from './contacts.routes.ts';
export { type Contact, contactName, getContact } from './contacts.service.ts';
export { CONTACT_TYPES, type ContactType } from './contacts.tables.ts';
