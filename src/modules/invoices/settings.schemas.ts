import { Type } from 'typebox';
import { IMAGE_TYPES } from '../../platform/files/images.ts';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const NullableText = nullable(Type.String());
const OrNull = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(s: T) =>
  nullable(s);

/**
 * Up to 12 letters, digits and - / . _ #, ending in anything but a digit (or empty): the number
 * follows it, and a prefix ending in a digit could make one document's number another's
 * (INV-1 + 023 = INV- + 1023).
 */
export const PREFIX_PATTERN = '^([A-Za-z0-9/#._-]{0,11}[A-Za-z/#._-])?$';
const Prefix = Type.String({
  maxLength: 12,
  pattern: PREFIX_PATTERN,
  description:
    'Up to 12 letters, digits and - / . _ #, not ending in a digit; may be empty. Used for numbers taken from now on.',
});

const prefixDescription =
  'One per document type; unknown types are a 400 naming prefixes.<type>. Two types may not share a prefix.';

export const Prefixes = named(
  'InvoicePrefixes',
  Type.Object(
    {
      invoice: Type.String(),
      quote: Type.String(),
      pro_forma: Type.String(),
      sales_order: Type.String(),
      delivery_note: Type.String(),
      credit_note: Type.String(),
      debit_note: Type.String(),
      cash_sale: Type.String(),
      deposit: Type.String(),
    },
    { description: 'The prefix of each document type' },
  ),
);

// Not declared additionalProperties false (yet): the service refuses another key itself, with a
// 400 naming prefixes.<key>, where the validator as configured today would silently drop it.
export const PrefixesPatch = named(
  'InvoicePrefixesUpdate',
  Type.Object(
    {
      invoice: Type.Optional(Prefix),
      quote: Type.Optional(Prefix),
      pro_forma: Type.Optional(Prefix),
      sales_order: Type.Optional(Prefix),
      delivery_note: Type.Optional(Prefix),
      credit_note: Type.Optional(Prefix),
      debit_note: Type.Optional(Prefix),
      cash_sale: Type.Optional(Prefix),
      deposit: Type.Optional(Prefix),
    },
    { description: prefixDescription },
  ),
);

const Terms = Type.String({ maxLength: 4000 });
const BankText = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const BankAccountNumber = Type.String({
  pattern: '^[0-9][0-9 -]{3,22}[0-9]$',
  description: 'Digits (spaces and dashes allowed between them), 5 to 24 characters',
});
const BranchCode = Type.String({
  pattern: '^[0-9]{3,10}$',
  description: 'Digits, e.g. a universal branch code such as 250655',
});

export const InvoiceSettings = named(
  'InvoiceSettings',
  Type.Object({
    companyId: Uuid,
    prefixes: Prefixes,
    numberDigits: Type.Integer({ description: 'Numbers are zero-padded to this many digits' }),
    defaultPaymentTermsDays: Type.Integer({
      description: 'A new document without paymentTermsDays records this term',
    }),
    defaultTerms: nullable(Type.String(), {
      description: 'A new document without terms takes these',
    }),
    defaultNotes: nullable(Type.String(), {
      description: 'A new document without notes takes these',
    }),
    bankName: NullableText,
    bankAccountName: NullableText,
    bankAccountNumber: NullableText,
    bankBranchCode: NullableText,
    bankAccountType: NullableText,
    defaultTemplateId: nullable(Uuid, {
      description: 'The look of documents that name no template',
    }),
    createdAt: Type.String({
      format: 'date-time',
      description:
        "The settings' first change; while never changed (the defaults apply), the company's creation",
    }),
    updatedAt: Type.String({
      format: 'date-time',
      description: "The last change; while never changed (the defaults apply), the company's creation",
    }),
  }),
);

export const InvoiceSettingsPatch = named(
  'InvoiceSettingsUpdate',
  Type.Object(
    {
      prefixes: Type.Optional(PrefixesPatch),
      numberDigits: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
      defaultPaymentTermsDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
      defaultTerms: Type.Optional(OrNull(Terms)),
      defaultNotes: Type.Optional(OrNull(Terms)),
      bankName: Type.Optional(OrNull(BankText(100, 'e.g. First National Bank'))),
      bankAccountName: Type.Optional(OrNull(BankText(100))),
      bankAccountNumber: Type.Optional(OrNull(BankAccountNumber)),
      bankBranchCode: Type.Optional(OrNull(BranchCode)),
      bankAccountType: Type.Optional(OrNull(BankText(40, 'e.g. Cheque, Current, Savings'))),
      defaultTemplateId: Type.Optional(nullable(Uuid)),
    },
    {
      additionalProperties: false,
      examples: [
        {
          prefixes: { invoice: 'TAX-' },
          numberDigits: 5,
          defaultPaymentTermsDays: 30,
          defaultTerms: 'Payment within 30 days of the invoice date.',
          bankName: 'First National Bank',
          bankAccountName: 'Acme Trading (Pty) Ltd',
          bankAccountNumber: '62000000001',
          bankBranchCode: '250655',
          bankAccountType: 'Cheque',
        },
      ],
    },
  ),
);

// Templates: how a document looks on paper.

/** The decoded logo may be this large: a logo, printed in a box of 180 × 60 points. */
export const MAX_LOGO_BYTES = 512 * 1024;
/** The body of a template write: a logo of MAX_LOGO_BYTES in base64 (≈ 683 KiB) and the rest. */
export const TEMPLATE_BODY_LIMIT = 1024 * 1024;

const Colour = (description: string) =>
  Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: `${description} (#rrggbb)` });
const Footer = Type.String({
  maxLength: 500,
  description: 'Printed at the foot of every page (up to 500 characters)',
});
const TemplateName = Type.String({ minLength: 1, maxLength: 100 });

export const LogoContentType = named(
  'InvoiceTemplateLogoType',
  stringEnum(IMAGE_TYPES, {
    description: "The logo's image type (an upload's bytes are checked against it)",
  }),
);

export const LogoUpload = named(
  'InvoiceTemplateLogoUpload',
  Type.Object(
    {
      contentType: LogoContentType,
      data: Type.String({
        minLength: 4,
        pattern: '^[A-Za-z0-9+/]*={0,2}$',
        description:
          'The image, base64 (RFC 4648, no line breaks). At most 512 KiB decoded and 2000 pixels a side; ' +
          'a PNG or JPEG by its own bytes, read through before it is kept.',
      }),
    },
    { additionalProperties: false, description: 'A PNG or JPEG logo, in base64' },
  ),
);

/** A 1 × 1 transparent PNG: the example a console pre-fills. */
const EXAMPLE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=';

export const TemplateCreate = named(
  'InvoiceTemplateCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      name: TemplateName,
      primaryColour: Type.Optional(
        Colour(
          'Title, table heading band and rules; default #1f4e79 (the heading text is white or black to read)',
        ),
      ),
      accentColour: Type.Optional(Colour('Background of the customer and totals boxes; default #f2f2f2')),
      footer: Type.Optional(Footer),
      logo: Type.Optional(LogoUpload),
    },
    {
      additionalProperties: false,
      examples: [
        {
          name: 'Standard',
          primaryColour: '#1f4e79',
          accentColour: '#eef3f8',
          footer: 'Thank you for your business.',
          logo: { contentType: 'image/png', data: EXAMPLE_PNG },
        },
      ],
    },
  ),
);

export const TemplatePatch = named(
  'InvoiceTemplateUpdate',
  Type.Object(
    {
      name: Type.Optional(TemplateName),
      primaryColour: Type.Optional(Colour('Title, table heading band and rules')),
      accentColour: Type.Optional(Colour('Background of the customer and totals boxes')),
      footer: Type.Optional(nullable(Footer)),
      logo: Type.Optional(nullable(LogoUpload, { description: 'null removes the logo' })),
    },
    { additionalProperties: false },
  ),
);

export const TemplateLogo = named(
  'InvoiceTemplateLogo',
  Type.Object({
    contentType: LogoContentType,
    size: Type.Integer({ description: 'Bytes' }),
    url: Type.String({ description: 'Where the image is answered' }),
  }),
);

export const Template = named(
  'InvoiceTemplate',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    name: Type.String(),
    primaryColour: Type.String(),
    accentColour: Type.String(),
    footer: NullableText,
    logo: nullable(TemplateLogo),
    isDefault: Type.Boolean({ description: "The invoice settings' defaultTemplateId names it" }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);
