import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { agedReport } from './contacts.aging.ts';
import { getConsent, recordConsent } from './contacts.consent.ts';
import {
  AgedQuery,
  AgedRow,
  Consent,
  ConsentRecord,
  Contact,
  ContactCreate,
  ContactListQuery,
  ContactUpdate,
} from './contacts.schemas.ts';
import { createContact, deleteContact, getContact, listContacts, updateContact } from './contacts.service.ts';

const BOOK =
  'Contacts are one book per tenant, shared by all its companies: no X-Company-Id is needed, and one sent is ignored.';

const AGING =
  'From the ledger alone: the open items of the control accounts and their journal lines. An item counts ' +
  'with the sum of its lines dated on or before asOf (default today), and ages from its due date (or, ' +
  'without one, the date of its first line): current = not yet due on asOf, days30 = 1-30 days past due, ' +
  'days60 = 31-60, days90 = 61-90, days120 = 91-120, older = more than 120; overdue = days30 + days60 + ' +
  'days90 + days120 + older. One row per contact with a ' +
  'non-zero total, by name; amounts posted without a contact form a row with contactId null. companyId ' +
  "limits it to one company (default: every live company of the tenant's, each in its own base currency; a " +
  'deleted company, such as a deleted sandbox, no longer counts). ' +
  'A bare array. An unparseable asOf is a 400 naming asOf; a companyId not of the tenant is a 404.';

export const contactRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/contacts',
    operationId: 'listContacts',
    tag: 'Contacts',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'List contacts (paged), filtered by type, text, tags and active state',
    description:
      `${BOOK} Ordered by name (any case), then id; sort orders by updatedAt or createdAt instead ` +
      '(`-` for descending; ties by id in the same direction). type is CUSTOMER, SUPPLIER, EMPLOYEE or ' +
      'TAX_PRACTITIONER, in any case (anything else: 400 naming type). q looks for the text, in any case, ' +
      'in name, tradingName, email, phone and vatNumber. tag may repeat: a contact must carry every tag ' +
      'given. Without isActive both active and inactive contacts are listed. Deleted contacts are left out, ' +
      'except with updatedSince: a sync then sees every contact changed since, deleted ones with deletedAt ' +
      'set. Filters apply before paging; limit defaults to 50, at most 200.',
    query: ContactListQuery,
    response: { 200: Paged(Contact) },
    handler: async ({ query }, ctx) => listContacts(ctx, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/contacts',
    operationId: 'createContact',
    tag: 'Contacts',
    errors: ['CONFLICT'],
    module: 'contacts',
    access: 'write',
    permission: ['contacts', 'write'],
    summary: 'Create a contact (201), or answer the existing one for a clientId already used (200)',
    description:
      `${BOOK} contactType defaults to CUSTOMER; currency defaults to ZAR, ` +
      'paymentTerms to 30 days, isActive to true; creditLimit null means no limit. Blank text is stored ' +
      'as null. A clientId that is not a UUID is a 400 naming clientId; one of a deleted contact is a 409. ' +
      'A new contact emits contact.created (a replay emits nothing).',
    body: ContactCreate,
    response: createdOrExisting(Contact),
    handler: async ({ body }, ctx) => createContact(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/contacts/aged-debtors',
    operationId: 'getAgedDebtors',
    tag: 'Reports',
    errors: ['NOT_FOUND'],
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'Aged debtors: what each contact owes on the debtors control accounts, by age',
    description: AGING,
    query: AgedQuery,
    response: { 200: Type.Array(AgedRow) },
    handler: async ({ query }, ctx) => agedReport(ctx, 'debtors_control', query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/contacts/aged-creditors',
    operationId: 'getAgedCreditors',
    tag: 'Reports',
    errors: ['NOT_FOUND'],
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'Aged creditors: what is owed to each contact on the creditors control accounts, by age',
    description: `${AGING} Amounts owed by us read as positive numbers.`,
    query: AgedQuery,
    response: { 200: Type.Array(AgedRow) },
    handler: async ({ query }, ctx) => agedReport(ctx, 'creditors_control', query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/contacts/{id}',
    operationId: 'getContact',
    tag: 'Contacts',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'One contact, with creditUsed read from the ledger',
    description: `${BOOK} A deleted contact, or another tenant's, is a 404.`,
    params: IdParams,
    response: { 200: Contact },
    handler: async ({ params }, ctx) => getContact(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/contacts/{id}',
    operationId: 'updateContact',
    tag: 'Contacts',
    module: 'contacts',
    access: 'write',
    permission: ['contacts', 'write'],
    summary: 'Change a contact: only the fields sent; null clears a text field or the credit limit',
    description: `${BOOK} tags, when sent, replace the contact's tags. updatedAt moves; emits contact.updated.`,
    params: IdParams,
    body: ContactUpdate,
    response: { 200: Contact },
    handler: async ({ params, body }, ctx) => updateContact(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/contacts/{id}',
    operationId: 'deleteContact',
    tag: 'Contacts',
    errors: ['CONTACT_HAS_OPEN_ITEMS'],
    module: 'contacts',
    access: 'write',
    permission: ['contacts', 'write'],
    summary: 'Delete a contact (soft): it leaves the list and its id answers 404; its history stays',
    description:
      'Refused with 409 CONTACT_HAS_OPEN_ITEMS while the ledger still shows an open invoice, bill or ' +
      'credit of the contact; mark it inactive (isActive false) instead. Ledger lines keep naming it. ' +
      'Emits contact.updated with deletedAt set; a list read with updatedSince still shows it.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteContact(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/contacts/{id}/consent',
    operationId: 'getContactConsent',
    tag: 'Contacts',
    module: 'contacts',
    access: 'read',
    permission: ['contacts', 'read'],
    summary: 'Marketing consent of a contact: the one in force per channel, and the full history',
    description:
      'Channels: email, sms, whatsapp, phone, post. mayMarket is true only when the latest record of the ' +
      'channel is granted: a channel never asked about may not be marketed on (opt-in, as POPIA section ' +
      '69 requires for electronic marketing; applied to phone and post too). notMarketing states what ' +
      'the consents do not govern: messages about existing business (invoices, statements, reminders) are ' +
      'not marketing. History is newest first.',
    params: IdParams,
    response: { 200: Consent },
    handler: async ({ params }, ctx) => getConsent(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/contacts/{id}/consent',
    operationId: 'recordContactConsent',
    tag: 'Contacts',
    module: 'contacts',
    access: 'write',
    permission: ['contacts', 'write'],
    summary: 'Record consent given, refused or withdrawn for one channel (appended to the history)',
    description:
      'Nothing is overwritten: the record joins the history and, being the latest of its channel, is the ' +
      'one in force. recordedAt (default now) may be earlier, e.g. the day a form was signed, but not in ' +
      'the future; the latest by recordedAt wins. recordedBy is the name of the signed-in person or API ' +
      'key. Answers 201 with the whole consent.',
    params: IdParams,
    body: ConsentRecord,
    response: { 201: Consent },
    handler: async ({ params, body }, ctx) => recordConsent(ctx, params.id, body),
  }),
];
