// API shapes of leads: the record, its create and change bodies, the paged list's query, the
// conversion body and the body /external/leads takes (the spec's list of fields, no more).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid, uuidOrNull } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { LEAD_STATUSES } from './crm.tables.ts';

const DateTime = Type.String({ format: 'date-time' });

/** The marketing channels, as contact_consents names them. */
export const CONSENT_CHANNELS = ['email', 'sms', 'whatsapp', 'phone', 'post'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

export const LeadStatus = named(
  'LeadStatus',
  stringEnum(LEAD_STATUSES, { description: 'converted: set by POST /api/crm/leads/{id}/convert only' }),
);
const ConsentChannelSchema = named(
  'LeadConsentChannel',
  stringEnum(CONSENT_CHANNELS, { description: 'A marketing channel the person agreed to be contacted on' }),
);

const name = Type.String({ minLength: 1, maxLength: 200 });
const text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });
const email = Type.String({ maxLength: 320, description: 'An e-mail address (user@domain)' });
const phone = Type.String({
  maxLength: 40,
  description:
    'As the person gave it; read as a South African number unless it starts with + and a country code. ' +
    'A number that cannot be read: 400 naming phone',
});
const MAX_VALUE = 999_999_999_999;
const estimatedValue = Type.Number({
  minimum: 0,
  maximum: MAX_VALUE,
  description: 'ZAR, at most two decimals',
});
const tags = Type.Array(Type.String({ maxLength: 50 }), { maxItems: 50 });
const consentChannels = Type.Array(ConsentChannelSchema, { maxItems: 5, uniqueItems: true });

export const Lead = named(
  'Lead',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    companyName: nullable(Type.String()),
    email: nullable(Type.String()),
    phone: nullable(Type.String({ description: 'As given' })),
    phoneE164: nullable(Type.String({ description: 'The phone in E.164 (+27821234567)' })),
    source: nullable(Type.String()),
    status: LeadStatus,
    ownerId: nullable(Uuid, { description: 'The user who owns the lead' }),
    estimatedValue: nullable(Type.Number()),
    notes: nullable(Type.String()),
    externalRef: nullable(Type.String({ description: "The sender's reference (/external/leads)" })),
    tags: Type.Array(Type.String()),
    consentChannels: Type.Array(ConsentChannelSchema),
    contactId: nullable(Uuid, { description: 'The contact it became (converted)' }),
    opportunityId: nullable(Uuid, { description: 'The opportunity made when it was converted' }),
    convertedAt: nullable(DateTime),
    importId: nullable(Uuid, { description: 'The CSV import that created it' }),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: nullable(DateTime, { description: 'Set only in lists given updatedSince' }),
  }),
);

const createExample = {
  name: 'Thandi Nkosi',
  companyName: 'Nkosi Logistics',
  email: 'thandi@nkosilogistics.co.za',
  phone: '082 555 0142',
  source: 'website',
  status: 'new',
  estimatedValue: 45000,
  notes: 'Asked for a quote on fleet tracking',
  tags: ['fleet', 'gauteng'],
  consentChannels: ['email'],
};

export const LeadCreate = named(
  'LeadCreate',
  Type.Object(
    {
      name,
      companyName: Type.Optional(text(200)),
      email: Type.Optional(email),
      phone: Type.Optional(phone),
      source: Type.Optional(text(100, 'Where the lead came from: website, referral, trade show…')),
      status: Type.Optional(LeadStatus),
      ownerId: Type.Optional(uuid({ description: 'A user of the tenant' })),
      estimatedValue: Type.Optional(estimatedValue),
      notes: Type.Optional(text(4000)),
      externalRef: Type.Optional(text(200, 'Unique among the tenant’s leads (409 when taken)')),
      tags: Type.Optional(tags),
      consentChannels: Type.Optional(consentChannels),
    },
    { additionalProperties: false, examples: [createExample] },
  ),
);

export const LeadUpdate = named(
  'LeadUpdate',
  Type.Object(
    {
      name: Type.Optional(name),
      companyName: Type.Optional(orNull<string>({ type: 'string', maxLength: 200 })),
      email: Type.Optional(orNull<string>({ type: 'string', maxLength: 320 })),
      phone: Type.Optional(orNull<string>({ type: 'string', maxLength: 40 })),
      source: Type.Optional(orNull<string>({ type: 'string', maxLength: 100 })),
      status: Type.Optional(LeadStatus),
      ownerId: Type.Optional(uuidOrNull()),
      estimatedValue: Type.Optional(orNull<number>({ type: 'number', minimum: 0, maximum: MAX_VALUE })),
      notes: Type.Optional(orNull<string>({ type: 'string', maxLength: 4000 })),
      tags: Type.Optional(tags),
      consentChannels: Type.Optional(consentChannels),
    },
    { additionalProperties: false, examples: [{ status: 'qualified', estimatedValue: 60000 }] },
  ),
);

export const LEAD_SORT_KEYS = ['createdAt', 'updatedAt'] as const;
export const LEAD_DEFAULT_SORT = '-createdAt';

export const LeadListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(LEAD_SORT_KEYS, LEAD_DEFAULT_SORT),
  status: Type.Optional(LeadStatus),
  owner: Type.Optional(uuid({ description: 'Leads this user owns' })),
  source: Type.Optional(Type.String({ maxLength: 100, description: 'Exactly this source, in any case' })),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Part of the name, company name, e-mail or phone, in any case; a whole phone number however written',
    }),
  ),
});

export const LeadConvert = named(
  'LeadConvert',
  Type.Object(
    {
      contactId: Type.Optional(uuid({ description: 'Link this contact instead of making one' })),
      opportunity: Type.Optional(
        Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            stageId: Type.Optional(uuid({ description: 'Default: the first stage of the pipeline' })),
            amount: Type.Optional(
              Type.Number({
                minimum: 0,
                maximum: MAX_VALUE,
                description: "Default: the lead's estimatedValue (or 0)",
              }),
            ),
            expectedCloseDate: Type.Optional(Type.String({ format: 'date' })),
          },
          { additionalProperties: false },
        ),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ opportunity: { amount: 45000, expectedCloseDate: '2027-03-31' } }],
    },
  ),
);

export const ExternalLeadCreate = named(
  'ExternalLeadCreate',
  Type.Object(
    {
      name,
      companyName: Type.Optional(text(200)),
      email: Type.Optional(email),
      phone: Type.Optional(phone),
      source: Type.Optional(text(100)),
      estimatedValue: Type.Optional(estimatedValue),
      notes: Type.Optional(text(4000)),
      externalRef: Type.Optional(
        text(
          200,
          'Your reference for the lead: sent again, the lead already made is answered (200). Send it always',
        ),
      ),
    },
    {
      additionalProperties: false,
      examples: [
        {
          name: 'Pieter van Wyk',
          companyName: 'Van Wyk Boerdery',
          email: 'pieter@vanwykboerdery.co.za',
          phone: '+27 82 555 0199',
          source: 'website form',
          estimatedValue: 12000,
          notes: 'Wants a demo',
          externalRef: 'form-2027-000123',
        },
      ],
    },
  ),
);
