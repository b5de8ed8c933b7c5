// TypeBox schemas of price lists: per company or every company, per product or variant.
import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid, uuidOrNull } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';

const Timestamp = Type.String({ format: 'date-time' });

const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Unique in the tenant in any case; trimmed',
});
const CompanyId = uuidOrNull({
  description: 'The company whose documents take it; null (the default): every company',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; default ZAR' });
const ContactTags = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 50,
  description:
    'Contacts with any of these tags take this list, unless they have a list of their own (the first such list by name)',
});

export const PriceInput = named(
  'PriceListPriceInput',
  Type.Object(
    {
      productId: Uuid,
      variantId: Type.Optional(uuidOrNull({ description: 'null: the product' })),
      unitPrice: Type.Number({
        minimum: 0,
        maximum: 999_999_999_999,
        description: 'Excluding VAT; up to four decimals',
      }),
    },
    { additionalProperties: false },
  ),
);

export const Price = named(
  'PriceListPrice',
  Type.Object({
    productId: Uuid,
    variantId: nullable(Uuid, {
      description: "null: the product's price (its variants without one of their own)",
    }),
    unitPrice: Type.Number(),
  }),
);

export const PriceList = named(
  'PriceList',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    companyId: nullable(Uuid, { description: 'null: every company' }),
    currency: Type.String(),
    contactTags: Type.Array(Type.String()),
    isActive: Type.Boolean(),
    prices: Type.Array(Price),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp, {
      description: 'Set only on a deleted list, which only updatedSince shows',
    }),
  }),
);

const Prices = Type.Array(PriceInput, {
  maxItems: 5000,
  description: 'One price per product (variantId null) or variant; the same one twice is a 400',
});

export const PriceListCreate = named(
  'PriceListCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      name: Name,
      companyId: Type.Optional(CompanyId),
      currency: Type.Optional(Currency),
      contactTags: Type.Optional(ContactTags),
      isActive: Type.Optional(Type.Boolean({ description: 'Default true' })),
      prices: Type.Optional(Prices),
    },
    {
      additionalProperties: false,
      examples: [{ name: 'Wholesale', currency: 'ZAR', contactTags: ['wholesale'], prices: [] }],
    },
  ),
);

export const PriceListUpdate = named(
  'PriceListUpdate',
  Type.Object(
    {
      name: Type.Optional(Name),
      companyId: Type.Optional(CompanyId),
      currency: Type.Optional(Currency),
      contactTags: Type.Optional(ContactTags),
      isActive: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false, examples: [{ contactTags: ['wholesale', 'trade'], isActive: true }] },
  ),
);

export const PricesPut = named(
  'PriceListPrices',
  Type.Object(
    { prices: Prices },
    { additionalProperties: false, examples: [{ prices: [] }], description: 'Replaces the whole set' },
  ),
);

export const ContactsPut = named(
  'PriceListContactsInput',
  Type.Object(
    {
      contactIds: Type.Array(Uuid, {
        maxItems: 1000,
        uniqueItems: true,
        description: 'The contacts whose own list this is: the whole set (others lose it); [] clears',
      }),
    },
    { additionalProperties: false, examples: [{ contactIds: [] }] },
  ),
);

export const PriceListContacts = named(
  'PriceListContacts',
  Type.Object({ priceListId: Uuid, contactIds: Type.Array(Uuid) }),
);

export const PriceListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['updatedAt', 'createdAt'], 'name'),
    companyId: Type.Optional(
      uuid({
        description: "Lists this company's documents take (its own and every company's)",
      }),
    ),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ContactPriceList = named(
  'ContactPriceList',
  Type.Object({
    contactId: Uuid,
    priceList: nullable(
      Type.Object({
        id: Uuid,
        name: Type.String(),
        companyId: nullable(Uuid),
        prices: Type.Array(Price),
      }),
      { description: 'null: the contact takes no list (book prices apply)' },
    ),
  }),
);

export const ContactPriceListQuery = Type.Object(
  {
    companyId: Type.Optional(
      uuid({
        description:
          "The list the contact gets on this company's documents (lists of every company, or of it)",
      }),
    ),
  },
  { additionalProperties: false },
);
