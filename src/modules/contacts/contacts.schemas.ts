// TypeBox schemas of the contacts module: the contact, its list, its consent and the aged
// debtors and creditors rows.
import { type TNull, type TOptional, type TString, type TUnion, type TUnsafe, Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { CONSENT_CHANNELS, CONSENT_METHODS, CONSENT_STATUSES, CONTACT_TYPES } from './contacts.tables.ts';

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

const TYPE_VALUES = CONTACT_TYPES.join(', ');

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

const ContactTypeInput = Type.String({
  maxLength: 40,
  description: `One of ${TYPE_VALUES}, in any case (stored upper case)`,
  examples: ['CUSTOMER'],
});
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

export const Contact = Type.Object({
  id: Uuid,
  tenantId: Uuid,
  contactType: Type.Enum(CONTACT_TYPES),
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
});

export const ContactCreate = Type.Object(
  {
    clientId: clientIdProperty,
    contactType: Type.Optional(ContactTypeInput),
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
  },
);

export const ContactUpdate = Type.Object(
  {
    contactType: Type.Optional(ContactTypeInput),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...textInputs(),
    currency: Type.Optional(Currency),
    creditLimit: Type.Optional(CreditLimit),
    paymentTerms: Type.Optional(PaymentTerms),
    isActive: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Tags),
  },
  { examples: [{ creditLimit: 50000, paymentTerms: 60, tags: ['retail', 'key-account'] }] },
);

export const ContactListQuery = Type.Object({
  ...pageQueryProperties,
  type: Type.Optional(
    Type.String({
      maxLength: 40,
      description: `${TYPE_VALUES}, in any case; anything else is a 400 naming type`,
    }),
  ),
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
});

export const IdParams = Type.Object({ id: Uuid });

// Consent

const ConsentHistoryEntry = Type.Object({
  id: Uuid,
  channel: Type.Enum(CONSENT_CHANNELS),
  channelLabel: Type.String(),
  status: Type.Enum(CONSENT_STATUSES),
  statusLabel: Type.String(),
  method: Type.Enum(CONSENT_METHODS),
  methodLabel: Type.String(),
  note: nullable(Type.String()),
  recordedBy: Type.String({ description: 'Name of the person or API key that recorded it, at the time' }),
  recordedAt: Timestamp,
});

export const Consent = Type.Object({
  contactId: Uuid,
  notMarketing: Type.String({
    description:
      'What these consents do not govern: messages about business the contact already has with ' +
      'the company (invoices, statements, reminders, receipts) are not direct marketing and are ' +
      'sent whatever the consent says.',
  }),
  channels: Type.Array(
    Type.Object({
      channel: Type.String(),
      label: Type.String(),
      mayMarket: Type.Boolean({
        description: 'true only when the latest record for the channel is granted (opt-in)',
      }),
      latest: nullable(ConsentHistoryEntry),
    }),
    { description: 'Every channel, in a fixed order: email, sms, whatsapp, phone, post' },
  ),
  history: Type.Array(ConsentHistoryEntry, { description: 'Every record, newest first' }),
});

export const ConsentRecord = Type.Object(
  {
    channel: Type.Enum(CONSENT_CHANNELS, { description: CONSENT_CHANNELS.join(', ') }),
    status: Type.Enum(CONSENT_STATUSES, {
      description: 'granted (opted in), refused (asked, said no), withdrawn (opted out later)',
    }),
    method: Type.Enum(CONSENT_METHODS, { description: 'How it was obtained' }),
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
  },
);

// Aged debtors and creditors

export const AgedQuery = Type.Object({
  asOf: Type.Optional(
    Type.String({ format: 'date', description: 'The position at the end of this day; default today' }),
  ),
  companyId: Type.Optional(
    Type.String({ format: 'uuid', description: "One company only; default every company of the tenant's" }),
  ),
});

const money = (description: string) => Type.Number({ description });

export const AgedRow = Type.Object({
  contactId: nullable(Type.String({ format: 'uuid', description: 'null: posted without a contact' })),
  contactName: Type.String(),
  current: money('Not yet due on asOf'),
  days30: money('1 to 30 days past due'),
  days60: money('31 to 60 days past due'),
  days90: money('More than 60 days past due'),
  total: money('Everything outstanding'),
  overdue: money('days30 + days60 + days90'),
});
