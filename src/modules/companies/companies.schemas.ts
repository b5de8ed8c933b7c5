import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const VatNumber = Type.String({
  pattern: '^4\\d{9}$',
  description: 'South African VAT number: ten digits starting with 4',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' });
const DateString = Type.String({ format: 'date' });

/** The legal forms of South African businesses; the chart follows it (drawings). */
export const LEGAL_FORMS = [
  'pty_ltd',
  'public_company',
  'close_corporation',
  'sole_proprietor',
  'partnership',
  'trust',
  'npc',
] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];

export const LegalFormSchema = named(
  'LegalForm',
  stringEnum(LEGAL_FORMS, {
    description:
      'pty_ltd (private company, the default), public_company (Ltd), close_corporation (CC), ' +
      'sole_proprietor, partnership, trust, npc (non-profit company). Only a sole proprietor or a ' +
      'partnership has a Drawings account (3200): another form has none, or has it deactivated',
  }),
);

/** The VAT categories of VAT Act s27: which tax periods the company files VAT201 returns for. */
export const VAT_CATEGORIES = ['A', 'B', 'C', 'D', 'E'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

export const VatCategorySchema = named(
  'VatCategory',
  stringEnum(VAT_CATEGORIES, {
    description:
      'The VAT category (VAT Act s27), which sets the VAT periods (GET /api/reports/vat/periods): A two ' +
      'months ending in the odd months (January, March, ...); B two months ending in the even months ' +
      '(February, April, ...); C one month; D six months ending at the end of February and of August; E ' +
      'twelve months ending at the financial year end (ledger settings). B, the two-monthly period SARS ' +
      'gives most small vendors, is the default',
  }),
);

/** What documents print under the company's name (a tax invoice must show the address). */
export const CONTACT_COLUMNS = {
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  city: 'city',
  province: 'province',
  postalCode: 'postal_code',
  country: 'country',
  registrationNo: 'registration_no',
  email: 'email',
  phone: 'phone',
} as const;

const AddressLine1 = Type.String({ maxLength: 200, description: 'Street address, printed on documents' });
const Line = (maxLength: number) => Type.String({ maxLength });
const RegistrationNo = Type.String({
  maxLength: 40,
  description: 'Company registration number (CIPC), printed on documents, e.g. 2015/123456/07',
});
const Email = Type.String({ format: 'email', maxLength: 254, description: 'Printed on documents' });
const OrNull = <T extends ReturnType<typeof Type.String>>(s: T) => nullable(s);
const NullableText = nullable(Type.String());

export const Company = named(
  'Company',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    tradeName: nullable(Type.String()),
    legalForm: LegalFormSchema,
    parentId: nullable(Uuid),
    ownershipPercent: nullable(Type.Number()),
    baseCurrency: Type.String(),
    vatRegistered: Type.Boolean({ description: 'Registered for VAT today' }),
    vatRegisteredFrom: nullable(DateString),
    vatNumber: nullable(Type.String()),
    vatCategory: VatCategorySchema,
    addressLine1: NullableText,
    addressLine2: NullableText,
    city: NullableText,
    province: NullableText,
    postalCode: NullableText,
    country: NullableText,
    registrationNo: NullableText,
    email: NullableText,
    phone: NullableText,
    isSandbox: Type.Boolean(),
    isActive: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

export const CompanyCreate = named(
  'CompanyCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      tradeName: Type.Optional(Type.String({ maxLength: 200 })),
      legalForm: Type.Optional(LegalFormSchema),
      parentId: Type.Optional(Uuid),
      ownershipPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
      baseCurrency: Type.Optional(Currency),
      vatRegistered: Type.Optional(Type.Boolean()),
      vatRegisteredFrom: Type.Optional(DateString),
      vatNumber: Type.Optional(VatNumber),
      vatCategory: Type.Optional(VatCategorySchema),
      addressLine1: Type.Optional(AddressLine1),
      addressLine2: Type.Optional(Line(200)),
      city: Type.Optional(Line(100)),
      province: Type.Optional(Line(100)),
      postalCode: Type.Optional(Line(20)),
      country: Type.Optional(Line(100)),
      registrationNo: Type.Optional(RegistrationNo),
      email: Type.Optional(Email),
      phone: Type.Optional(Line(40)),
    },
    {
      examples: [
        {
          name: 'Acme Trading (Pty) Ltd',
          vatRegistered: true,
          vatRegisteredFrom: '2024-03-01',
          vatNumber: '4123456789',
          addressLine1: '12 Long Street',
          city: 'Cape Town',
          postalCode: '8001',
          registrationNo: '2015/123456/07',
        },
      ],
      additionalProperties: false,
    },
  ),
);

export const CompanyUpdate = named(
  'CompanyUpdate',
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      tradeName: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
      legalForm: Type.Optional(LegalFormSchema),
      parentId: Type.Optional(nullable(Uuid)),
      ownershipPercent: Type.Optional(nullable(Type.Number({ minimum: 0, maximum: 100 }))),
      vatRegistered: Type.Optional(Type.Boolean()),
      vatRegisteredFrom: Type.Optional(DateString),
      vatNumber: Type.Optional(nullable(VatNumber)),
      vatCategory: Type.Optional(VatCategorySchema),
      addressLine1: Type.Optional(OrNull(AddressLine1)),
      addressLine2: Type.Optional(OrNull(Line(200))),
      city: Type.Optional(OrNull(Line(100))),
      province: Type.Optional(OrNull(Line(100))),
      postalCode: Type.Optional(OrNull(Line(20))),
      country: Type.Optional(OrNull(Line(100))),
      registrationNo: Type.Optional(OrNull(RegistrationNo)),
      email: Type.Optional(OrNull(Email)),
      phone: Type.Optional(OrNull(Line(40))),
      isActive: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);
