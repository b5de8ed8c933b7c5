// TypeBox schemas of the contacts module: the contact, its list, its consent and the aged
// debtors and creditors rows.
import { type TNull, type TOptional, type TString, type TUnion, type TUnsafe, Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { CONSENT_CHANNELS, CONSENT_METHODS, CONSENT_STATUSES, CONTACT_TYPES } from './contacts.tables.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const ContactType = named(
  'ContactType',
  stringEnum(CONTACT_TYPES, { description: 'What the contact is to the business' }),
);
export const ConsentChannel = named(
  'ConsentChannel',
  stringEnum(CONSENT_CHANNELS, { description: 'A channel marketing may use' }),
);
export const ConsentStatus = named(
  'ConsentStatus',
  stringEnum(CONSENT_STATUSES, {
    description: 'granted (opted in), refused (asked, said no), withdrawn (opted out later)',
  }),
);
export const ConsentMethod = named(
  'ConsentMethod',
  stringEnum(CONSENT_METHODS, { description: 'How the consent was obtained' }),
);

/** Free text of a contact (a name, a line of an address). */
const text = (maxLength: number, description?: string) => ({
  type: 'string' as const,
  maxLength,
  ...(description ? { description } : {}),
});

/** The contact's text fields other than name, each nullable on output; `null` clears on PATCH. */
const TEXT_FIELDS = {
  tradingName: text(200),
  email: { type: 'string' as const, format: 'email', maxLength: 254 },
  phone: text(40),
  mobile: text(40),
  vatNumber: text(30, 'VAT number (South African: ten digits starting with 4; foreign numbers as given)'),
  registrationNo: text(40, 'Company registration number, e.g. 2019/123456/07'),
  addressLine1: text(200, 'Physical address'),
  addressLine2: text(200),
  city: text(100),
  province: text(100),
  postalCode: text(20),
  country: text(100),
  postalAddressLine1: text(200, 'Postal address'),
  postalAddressLine2: text(200),
  postalCity: text(100),
  postalProvince: text(100),
  postalPostalCode: text(20),
  postalCountry: text(100),
  notes: text(5000),
};
export type TextField = keyof typeof TEXT_FIELDS;
export const TEXT_FIELD_NAMES = Object.keys(TEXT_FIELDS) as TextField[];

/** Every text field as input: optional, null allowed (on PATCH, null clears it; blank is null). */
function textInputs(): { [K in TextField]: TOptional<TUnsafe<string | null>> } {
  return Object.fromEntries(
    TEXT_FIELD_NAMES.map((k) => [k, Type.Optional(orNull<string>(TEXT_FIELDS[k]))]),
  ) as never;
}

/** Every text field as output: a string or null. */
function textOutputs(): { [K in TextField]: TUnion<[TString, TNull]> } {
  return Object.fromEntries(TEXT_FIELD_NAMES.map((k) => [k, nullable(Type.String())])) as never;
}

const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; default ZAR' });
const CreditLimit = orNull<number>({
  type: 'number',
  minimum: 0,
  maximum: 999_999_999_999.99,
  description: 'Money, at most two decimals; null: no credit limit',
});
const PaymentTerms = Type.Integer({
  minimum: 0,
  maximum: 3650,
  description: 'Days after the document date that it falls due; default 30',
});
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 50,
  description: 'Labels; trimmed, and repeats (in any case) kept once',
});

export const Contact = named(
  'Contact',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    contactType: ContactType,
    name: Type.String(),
    ...textOutputs(),
    currency: Type.String(),
    creditLimit: nullable(Type.Number({ description: 'null: no credit limit set' })),
    creditUsed: Type.Number({
      description:
        "What the contact owes now on the debtors control accounts of all the tenant's live companies " +
        '(sum of open items; negative when the contact is in credit). Derived from the ledger, never stored.',
    }),
    paymentTerms: Type.Integer(),
    isActive: Type.Boolean(),
    tags: Type.Array(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp, {
      description:
        'When the contact was deleted; null while it is live. Only a list read with updatedSince shows a ' +
        'deleted contact (so a sync learns of it); GET by id answers 404 for it.',
    }),
  }),
);

export const ContactCreate = named(
  'ContactCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactType: Type.Optional(ContactType),
      name: Type.String({ minLength: 1, maxLength: 200 }),
      ...textInputs(),
      currency: Type.Optional(Currency),
      creditLimit: Type.Optional(CreditLimit),
      paymentTerms: Type.Optional(PaymentTerms),
      isActive: Type.Optional(Type.Boolean()),
      tags: Type.Optional(Tags),
    },
    {
      examples: [
        {
          contactType: 'CUSTOMER',
          name: 'Karoo Kitchens (Pty) Ltd',
          tradingName: 'Karoo Kitchens',
          email: 'accounts@karookitchens.co.za',
          phone: '+27 21 555 0100',
          mobile: '+27 82 555 0100',
          vatNumber: '4123456789',
          registrationNo: '2019/123456/07',
          addressLine1: '12 Long Street',
          city: 'Cape Town',
          province: 'Western Cape',
          postalCode: '8001',
          country: 'South Africa',
          currency: 'ZAR',
          creditLimit: 25000,
          paymentTerms: 30,
          tags: ['retail', 'western-cape'],
        },
      ],
      additionalProperties: false,
    },
  ),
);

export const ContactUpdate = named(
  'ContactUpdate',
  Type.Object(
    {
      contactType: Type.Optional(ContactType),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      ...textInputs(),
      currency: Type.Optional(Currency),
      creditLimit: Type.Optional(CreditLimit),
      paymentTerms: Type.Optional(PaymentTerms),
      isActive: Type.Optional(Type.Boolean()),
      tags: Type.Optional(Tags),
    },
    {
      examples: [{ creditLimit: 50000, paymentTerms: 60, tags: ['retail', 'key-account'] }],
      additionalProperties: false,
    },
  ),
);

export const ContactListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['updatedAt', 'createdAt'], 'name'),
    type: Type.Optional(ContactType),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Contains, in any case, in name, tradingName, email, phone or vatNumber',
      }),
    ),
    tag: Type.Optional(
      Type.Array(Type.String({ maxLength: 50 }), {
        maxItems: 20,
        description: 'Repeat for several: a contact must carry every tag given (compared in any case)',
      }),
    ),
    isActive: Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) contacts' })),
  },
  { additionalProperties: false },
);

// Consent

const ConsentHistoryEntry = named(
  'ConsentEntry',
  Type.Object({
    id: Uuid,
    channel: ConsentChannel,
    channelLabel: Type.String(),
    status: ConsentStatus,
    statusLabel: Type.String(),
    method: ConsentMethod,
    methodLabel: Type.String(),
    note: nullable(Type.String()),
    recordedBy: Type.String({ description: 'Name of the person or API key that recorded it, at the time' }),
    recordedAt: Timestamp,
  }),
);

const ChannelConsent = named(
  'ChannelConsent',
  Type.Object({
    channel: ConsentChannel,
    label: Type.String(),
    mayMarket: Type.Boolean({
      description: 'true only when the latest record for the channel is granted (opt-in)',
    }),
    latest: nullable(ConsentHistoryEntry),
  }),
);

export const Consent = named(
  'Consent',
  Type.Object({
    contactId: Uuid,
    notMarketing: Type.String({
      description:
        'What these consents do not govern: messages about business the contact already has with ' +
        'the company (invoices, statements, reminders, receipts) are not direct marketing and are ' +
        'sent whatever the consent says.',
    }),
    channels: Type.Array(ChannelConsent, {
      description: 'Every channel, in a fixed order: email, sms, whatsapp, phone, post',
    }),
    history: Type.Array(ConsentHistoryEntry, { description: 'Every record, newest first' }),
  }),
);

export const ConsentRecord = named(
  'ConsentRecord',
  Type.Object(
    {
      channel: ConsentChannel,
      status: ConsentStatus,
      method: ConsentMethod,
      note: Type.Optional(orNull<string>({ type: 'string', maxLength: 1000 })),
      recordedAt: Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'When the contact gave or withdrew it (default now); not in the future',
        }),
      ),
    },
    {
      examples: [
        {
          channel: 'email',
          status: 'granted',
          method: 'web_form',
          note: 'Ticked "send me specials" on the online order form',
        },
      ],
      additionalProperties: false,
    },
  ),
);

// Aged debtors and creditors

export const AgedQuery = Type.Object(
  {
    asOf: Type.Optional(
      Type.String({ format: 'date', description: 'The position at the end of this day; default today' }),
    ),
    companyId: Type.Optional(
      uuid({ description: "One company only; default every company of the tenant's" }),
    ),
  },
  { additionalProperties: false },
);

const money = (description: string) => Type.Number({ description });

export const AgedRow = named(
  'AgedBalance',
  Type.Object({
    contactId: nullable(uuid({ description: 'null: posted without a contact' })),
    contactName: Type.String(),
    current: money('Not yet due on asOf'),
    days30: money('1 to 30 days past due'),
    days60: money('31 to 60 days past due'),
    days90: money('61 to 90 days past due'),
    days120: money('91 to 120 days past due'),
    older: money('More than 120 days past due'),
    unapplied: money(
      'Credit the contact has that is applied to nothing yet (debtors: credit notes, overpayments; creditors: ' +
        'supplier credit notes, bills overpaid), as a negative amount: in no bucket and not overdue',
    ),
    total: money('Everything outstanding: the buckets plus unapplied'),
    overdue: money('days30 + days60 + days90 + days120 + older (unapplied credit not deducted)'),
  }),
);
