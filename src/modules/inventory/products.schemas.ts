// TypeBox schemas of the products book.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { PRODUCT_PURCHASE_TAX_CODES, PRODUCT_SALES_TAX_CODES } from './products.tax.ts';

const Timestamp = Type.String({ format: 'date-time' });

const Sku = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'Stock-keeping unit: unique in the tenant in any case among live products and variants; trimmed',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = orNull<string>({
  type: 'string',
  maxLength: 4000,
  description: 'Free text; null clears',
});
const UnitPrice = Type.Number({
  minimum: 0,
  maximum: 999_999_999_999,
  description: 'Selling price excluding VAT; up to four decimals (as invoice lines take it)',
});
const VatRate = orNull<number>({
  type: 'number',
  minimum: 0,
  maximum: 100,
  description:
    'Percent, as a sales line takes it: 0 (zero), the standard rate of today (standard) or null (standard); ' +
    "any other rate, or one that is not salesTaxCode's, is 400. Answered as the code's: null (the standard " +
    'rate on the document date: 15%, 14% before 2018-04-01) or 0.',
});
const SalesTaxCode = named(
  'ProductSalesTaxCode',
  stringEnum([...PRODUCT_SALES_TAX_CODES], {
    description:
      "The code a sales line naming the product takes when it gives neither taxCode nor vatRate (a sales line's " +
      'codes; default standard)',
  }),
);
const PurchaseTaxCode = named(
  'ProductPurchaseTaxCode',
  stringEnum([...PRODUCT_PURCHASE_TAX_CODES], {
    description:
      "The code a bill line naming the product takes when it gives neither taxCode nor vatRate (a bill line's " +
      'codes; default standard)',
  }),
);
const taxFields = {
  salesTaxCode: Type.Optional(SalesTaxCode),
  purchaseTaxCode: Type.Optional(PurchaseTaxCode),
};

const CostMethod = Type.Union([Type.Literal('average'), Type.Literal('fifo')], {
  description: 'How its stock is costed: a weighted average per company, or first in first out',
});
const Tracking = Type.Union([Type.Literal('none'), Type.Literal('batch'), Type.Literal('serial')], {
  description: 'none; batch: every movement names a batch (with an expiry); serial: one serial per unit',
});
const Quantity = (description: string, minimum = 0) =>
  orNull<number>({ type: 'number', minimum, maximum: 999_999_999_999, description });
const AccountCode = orNull<string>({
  type: 'string',
  minLength: 1,
  maxLength: 20,
  description:
    "An account code of the chart (accounts are per company, so by code); null: the company's default",
});
const Barcode = orNull<string>({
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'EAN, UPC or any code',
});
const BaseUnit = Type.String({
  minLength: 1,
  maxLength: 32,
  description: "The unit stock is counted in (default 'each'); product units convert others to it",
});
const Weight = orNull<number>({
  type: 'number',
  minimum: 0,
  maximum: 999_999_999,
  description: 'kg per base unit, up to six decimals (landed costs spread by weight)',
});

/** The stock-keeping fields a create and an update take alike. */
const stockFields = {
  costMethod: Type.Optional(CostMethod),
  tracking: Type.Optional(Tracking),
  allowNegative: Type.Optional(
    Type.Boolean({
      description:
        'Stock may go below zero. Default true for tracking none, false for batch and serial products',
    }),
  ),
  reorderPoint: Type.Optional(Quantity('Reorder when on hand is at or below it; up to four decimals')),
  reorderQuantity: Type.Optional(Quantity('How much to reorder, in base units; more than 0', 0.0001)),
  barcode: Type.Optional(Barcode),
  baseUnit: Type.Optional(BaseUnit),
  weight: Type.Optional(Weight),
  incomeAccountCode: Type.Optional(AccountCode),
  costAccountCode: Type.Optional(AccountCode),
  inventoryAccountCode: Type.Optional(AccountCode),
};

export const Product = named(
  'Product',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    sku: Type.String(),
    name: Type.String(),
    description: nullable(Type.String()),
    unitPrice: Type.Number({ description: 'Excluding VAT' }),
    vatRate: nullable(Type.Number(), { description: "salesTaxCode's rate: null, the standard rate; 0" }),
    salesTaxCode: SalesTaxCode,
    purchaseTaxCode: PurchaseTaxCode,
    taxNote: nullable(Type.String(), {
      description:
        'Set by migration 0076 when the vatRate the product held was the rate of no tax code (7, 14): the code ' +
        'it was given and why; cleared when salesTaxCode or vatRate is set',
    }),
    isTracked: Type.Boolean({ description: 'Stock on hand is counted for it (false for a service)' }),
    isActive: Type.Boolean(),
    costMethod: CostMethod,
    tracking: Tracking,
    allowNegative: Type.Boolean(),
    reorderPoint: nullable(Type.Number()),
    reorderQuantity: nullable(Type.Number()),
    barcode: nullable(Type.String()),
    baseUnit: Type.String(),
    weight: nullable(Type.Number(), { description: 'kg per base unit' }),
    incomeAccountCode: nullable(Type.String(), { description: 'null: Sales (4000)' }),
    costAccountCode: nullable(Type.String(), { description: 'null: Cost of sales (5000)' }),
    inventoryAccountCode: nullable(Type.String(), { description: 'null: Inventory (1200)' }),
    onHand: Type.Number({
      description: 'Base units on hand now, over every company, location and variant (0 for a service)',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp, {
      description:
        'When the product was deleted; null while it is live. Only a list read with updatedSince shows a ' +
        'deleted product (so a sync learns of it); GET by id answers 404 for it.',
    }),
  }),
);

export const ProductCreate = named(
  'ProductCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      sku: Sku,
      name: Name,
      description: Type.Optional(Description),
      unitPrice: UnitPrice,
      vatRate: Type.Optional(VatRate),
      ...taxFields,
      isTracked: Type.Optional(Type.Boolean({ description: 'Default false' })),
      isActive: Type.Optional(Type.Boolean({ description: 'Default true' })),
      ...stockFields,
    },
    {
      examples: [
        {
          sku: 'ROOIBOS-250G',
          name: 'Rooibos tea, 250 g',
          description: 'Loose-leaf, Cederberg',
          unitPrice: 89.95,
          isTracked: true,
          costMethod: 'average',
          reorderPoint: 20,
          reorderQuantity: 100,
          barcode: '6001234567890',
          weight: 0.25,
        },
      ],
      additionalProperties: false,
    },
  ),
);

export const ProductUpdate = named(
  'ProductUpdate',
  Type.Object(
    {
      sku: Type.Optional(Sku),
      name: Type.Optional(Name),
      description: Type.Optional(Description),
      unitPrice: Type.Optional(UnitPrice),
      vatRate: Type.Optional(VatRate),
      ...taxFields,
      isTracked: Type.Optional(Type.Boolean()),
      isActive: Type.Optional(Type.Boolean()),
      ...stockFields,
    },
    { examples: [{ unitPrice: 94.5, isActive: true }], additionalProperties: false },
  ),
);

export const ProductListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['updatedAt', 'createdAt'], 'name'),
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'Contains, in any case, in sku, name or description' }),
    ),
    isActive: Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) products' })),
    barcode: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Exactly this barcode' })),
    belowReorder: Type.Optional(
      Type.Boolean({ description: 'true: only products with a reorder point and on hand at or below it' }),
    ),
  },
  { additionalProperties: false },
);
