import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { idParams, Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { BillTaxCodeSchema as BillTaxCode } from '../bills/index.ts';
import { lineStockOut, orderLineStock, receiptLineStock } from '../inventory/index.ts';
import { PURCHASE_ORDER_STATUSES } from './purchase-orders.tables.ts';

const DateString = Type.String({ format: 'date' });
const Timestamp = Type.String({ format: 'date-time' });

export const PurchaseOrderStatus = named(
  'PurchaseOrderStatus',
  stringEnum(PURCHASE_ORDER_STATUSES, {
    description:
      'draft (being prepared; changes) → sent (e-mailed to the supplier) → partially_received / received ' +
      '(goods in, per line) → billed (everything ordered received and billed); cancelled (a sent or partly ' +
      'received order of which nothing is billed). Nothing of an order posts to the ledger.',
  }),
);

export const PurchaseOrderLineInput = named(
  'PurchaseOrderLineInput',
  Type.Object(
    {
      description: Type.String({ minLength: 1, maxLength: 1000 }),
      quantity: Type.Number({ exclusiveMinimum: 0, description: 'Up to four decimals' }),
      unitPrice: Type.Number({ minimum: 0, description: 'Excluding VAT; up to four decimals' }),
      taxCode: Type.Optional(BillTaxCode),
      accountId: Type.Optional(
        uuid({
          description:
            "The expense or asset account the bill's line will post to; default General expenses (6750)",
        }),
      ),
      productId: Type.Optional(nullable(Uuid)),
      ...orderLineStock,
    },
    { additionalProperties: false },
  ),
);

const header = {
  expectedDate: Type.Optional(
    nullable(
      Type.String({ format: 'date', description: 'When the goods are expected; not before issueDate' }),
    ),
  ),
  reference: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
  notes: Type.Optional(nullable(Type.String({ maxLength: 4000 }))),
  deliveryAddress: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
};

export const PurchaseOrderCreate = named(
  'PurchaseOrderCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactId: uuid({ description: 'A SUPPLIER contact of the tenant' }),
      issueDate: DateString,
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Default ZAR' })),
      ...header,
      lines: Type.Array(PurchaseOrderLineInput, { minItems: 1, maxItems: 500 }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          contactId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10',
          issueDate: '2026-03-02',
          expectedDate: '2026-03-09',
          lines: [{ description: 'A4 paper, ream', quantity: 10, unitPrice: 100 }],
        },
      ],
    },
  ),
);

export const PurchaseOrderUpdate = named(
  'PurchaseOrderUpdate',
  Type.Object(
    {
      contactId: Type.Optional(uuid({ description: 'A SUPPLIER contact' })),
      issueDate: Type.Optional(DateString),
      ...header,
      lines: Type.Optional(
        Type.Array(PurchaseOrderLineInput, {
          minItems: 1,
          maxItems: 500,
          description: 'Replaces every line of the draft',
        }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ expectedDate: '2026-03-12', reference: 'Stationery, March' }],
    },
  ),
);

export const PurchaseOrderLine = named(
  'PurchaseOrderLine',
  Type.Object({
    id: Uuid,
    lineNo: Type.Integer(),
    description: Type.String(),
    quantity: Type.Number({ description: 'Ordered' }),
    quantityReceived: Type.Number({ description: 'Received so far, by the receipts' }),
    quantityBilled: Type.Number({ description: 'On live bills made from this line (not void or rejected)' }),
    unitPrice: Type.Number(),
    taxCode: BillTaxCode,
    vatRate: Type.Number(),
    accountId: Uuid,
    productId: nullable(Uuid),
    unit: nullable(Type.String(), {
      description: 'The unit the quantities of the line are in; null: the base unit',
    }),
    netAmount: Type.Number(),
    vatAmount: Type.Number(),
    totalAmount: Type.Number(),
  }),
);

export const PurchaseOrderReceipt = named(
  'PurchaseOrderReceipt',
  Type.Object({
    id: Uuid,
    date: DateString,
    note: nullable(Type.String()),
    createdAt: Timestamp,
    reversedAt: nullable(Timestamp, {
      description:
        'When the receipt was reversed (POST .../receipts/{receiptId}/reverse); null while it stands',
    }),
    reversalDate: nullable(DateString, { description: 'The date the reversal posted at' }),
    reason: nullable(Type.String(), { description: 'Why it was reversed, as given' }),
    lines: Type.Array(
      Type.Object({
        lineId: Uuid,
        quantity: Type.Number(),
        batchCode: lineStockOut.batchCode,
        batchExpiry: lineStockOut.batchExpiry,
        serials: lineStockOut.serials,
      }),
    ),
  }),
);

export const PurchaseOrder = named(
  'PurchaseOrder',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    companyId: Uuid,
    number: Type.String({ description: 'PO-0001, numbered per company' }),
    contactId: Uuid,
    supplierName: Type.String(),
    status: PurchaseOrderStatus,
    issueDate: DateString,
    expectedDate: nullable(DateString),
    currency: Type.String(),
    reference: nullable(Type.String()),
    notes: nullable(Type.String()),
    deliveryAddress: nullable(Type.String()),
    subtotal: Type.Number({ description: 'Sum of the line nets' }),
    vatTotal: Type.Number(),
    total: Type.Number({ description: 'VAT included' }),
    sentAt: nullable(Timestamp),
    cancelledAt: nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp),
    lines: Type.Array(PurchaseOrderLine),
    receipts: Type.Array(PurchaseOrderReceipt),
    billIds: Type.Array(Uuid, { description: 'The live bills against the order' }),
  }),
);

export const PURCHASE_ORDER_SORT_KEYS = ['date', 'number', 'createdAt', 'updatedAt'] as const;
export const PURCHASE_ORDER_DEFAULT_SORT = '-date';

export const PurchaseOrderListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(PURCHASE_ORDER_SORT_KEYS, PURCHASE_ORDER_DEFAULT_SORT),
  status: Type.Optional(PurchaseOrderStatus),
  contactId: Type.Optional(Uuid),
  from: Type.Optional(Type.String({ format: 'date', description: 'Issued on or after' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Issued on or before' })),
});

export const ReceiptCreate = named(
  'PurchaseOrderReceiptCreate',
  Type.Object(
    {
      date: Type.String({
        format: 'date',
        description: "The day the goods came; not before the order's issue date",
      }),
      note: Type.Optional(Type.String({ maxLength: 1000 })),
      lines: Type.Array(
        Type.Object(
          {
            lineId: uuid({ description: 'A line of the order' }),
            quantity: Type.Number({
              exclusiveMinimum: 0,
              description:
                "Received now, in the order line's unit; at most what was ordered less what was received before",
            }),
            ...receiptLineStock,
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 500 },
      ),
    },
    {
      additionalProperties: false,
      examples: [
        { date: '2026-03-09', lines: [{ lineId: '8d3b0e0c-4a3f-4a8e-9f0b-1d2c3b4a5e6f', quantity: 6 }] },
      ],
    },
  ),
);

export const BillFromOrder = named(
  'PurchaseOrderBillCreate',
  Type.Object(
    {
      billNumber: Type.String({ minLength: 1, maxLength: 100, description: "The supplier's own number" }),
      issueDate: DateString,
      dueDate: Type.String({ format: 'date', description: 'Not before issueDate' }),
      supplierVatNumber: Type.Optional(Type.String({ maxLength: 20 })),
    },
    {
      additionalProperties: false,
      examples: [{ billNumber: 'KOS-1001', issueDate: '2026-03-10', dueDate: '2026-04-09' }],
    },
  ),
);

export const PurchaseOrderSend = named(
  'PurchaseOrderSend',
  Type.Object(
    {
      to: Type.Optional(
        Type.String({
          format: 'email',
          maxLength: 254,
          description: "The address to send to; default the supplier's e-mail address",
        }),
      ),
      message: Type.Optional(
        Type.String({ maxLength: 4000, description: 'Your words, at the top of the e-mail' }),
      ),
    },
    { additionalProperties: false, examples: [{ message: 'Please deliver by Monday.' }] },
  ),
);

export const PurchaseOrderSent = named(
  'PurchaseOrderSendResult',
  Type.Object({
    emailId: Uuid,
    to: Type.String(),
    status: stringEnum(['queued', 'stored'] as const, {
      description: 'queued: the job worker sends it over SMTP; stored: no SMTP is configured, it is kept',
    }),
    subject: Type.String(),
    sentAt: Timestamp,
    purchaseOrder: PurchaseOrder,
  }),
);

export const PurchaseOrderNotice = named(
  'PurchaseOrderNotice',
  Type.Object({
    status: PurchaseOrderStatus,
    ledgerNotice: Type.String({ description: 'What the ledger did (nothing: an order is a commitment)' }),
  }),
);

export const PurchaseOrderPdf = Type.String({
  contentMediaType: 'application/pdf',
  description: 'The purchase order as a PDF (A4); Content-Disposition names the file, e.g. PO-0001.pdf',
});

export const ReceiptIdParams = idParams('id', 'receiptId');

export const ReceiptReverse = named(
  'PurchaseOrderReceiptReverse',
  Type.Object(
    {
      date: Type.Optional(
        Type.String({
          format: 'date',
          description:
            "The reversal's date (its entry's and movements'); default today, not before the receipt's",
        }),
      ),
      reason: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 1000,
          description: 'Why, e.g. "entered against the wrong order"',
        }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ reason: 'Entered against the wrong order' }],
    },
  ),
);
