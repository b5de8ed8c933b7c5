import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { billLineStock, lineStockOut, salesLineStock } from '../inventory/index.ts';
import { INVOICE_DEFAULT_SORT, INVOICE_SORT_KEYS } from '../invoices/index.ts';
import { BILL_FREQUENCIES, BILL_STATUSES } from './bills.tables.ts';
import { BILL_TAX_CODES } from './bills.vat.ts';

const DateString = Type.String({ format: 'date' });
const Timestamp = Type.String({ format: 'date-time' });

export const BillStatus = named(
  'BillStatus',
  stringEnum(BILL_STATUSES, {
    description:
      'draft (being captured) → awaiting_approval (submitted) → approved (posted: the supplier is owed) → ' +
      'partially_paid / paid; rejected (an approver refused it, with a reason; nothing posted); void (an ' +
      "approved bill's entry reversed, or an unposted bill withdrawn).",
  }),
);

export const BillTaxCode = named(
  'BillTaxCode',
  stringEnum(BILL_TAX_CODES, {
    description:
      "How the supplier taxed a bill line; the rate follows from the code and the bill's issue date. standard: " +
      '15% (14% before 2018-04-01), input tax on other goods and services (VAT201 field 15); standard_capital: ' +
      'the same rate, input tax on capital goods and services (field 14); zero, exempt: no VAT; out_of_scope: ' +
      'not a supply, in no field. A company not VAT-registered on the issue date claims no input tax: the VAT ' +
      'is then part of the cost.',
  }),
);

export const BillFrequency = named(
  'BillFrequency',
  stringEnum(BILL_FREQUENCIES, { description: 'How often a recurring bill comes' }),
);

/** What a bill line and a supplier credit note line are sent with. */
const taxedLineProperties = {
  description: Type.String({ minLength: 1, maxLength: 1000 }),
  quantity: Type.Number({ description: 'Up to four decimals' }),
  unitPrice: Type.Number({ description: 'Excluding VAT; up to four decimals' }),
  taxCode: Type.Optional(BillTaxCode),
  vatRate: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description:
        'Percent, instead of taxCode: 0 means zero, the standard rate on the issue date means standard; any ' +
        'other rate, or one that disagrees with taxCode, is 400. Neither given: standard.',
    }),
  ),
};

export const BillLineInput = named(
  'BillLineInput',
  Type.Object(
    {
      ...taxedLineProperties,
      accountId: Type.Optional(
        uuid({
          description:
            'The expense or asset account it posts to (not a control account); default General expenses (6750), ' +
            'the catch-all expense account of the chart, to be reclassified by the bookkeeper',
        }),
      ),
      costCentreId: Type.Optional(nullable(Uuid)),
      productId: Type.Optional(nullable(Uuid)),
      variantId: Type.Optional(
        nullable(Uuid, { description: 'The variant bought, when the product has variants (its own stock)' }),
      ),
      purchaseOrderLineId: Type.Optional(
        nullable(Uuid, {
          description:
            "The line of the bill's purchase order it bills (a bill naming no purchaseOrderId takes this line's " +
            "order). It bills that line's product (taken when productId is absent) in that line's unit, never " +
            'more than was ordered with the other live bills (400 naming lines[i].quantity). A tracked product ' +
            'billed so moves no stock: the receipt brought it in, and the bill clears goods received not ' +
            "invoiced (GRNI); a price other than the order's revalues the receipt's units still on hand, the " +
            'rest is cost of sales. Billed before it is received, the bill debits GRNI and the receipt comes in ' +
            "at the bill's price. A bill naming its order links a product line to the order's one line of that " +
            'product by itself (two or more: 400 naming this field)',
        }),
      ),
      ...billLineStock,
    },
    { additionalProperties: false },
  ),
);

const recurrence = {
  recurring: Type.Optional(Type.Boolean({ description: 'A bill that comes again (kept; default false)' })),
  frequency: Type.Optional(nullable(BillFrequency)),
  nextDate: Type.Optional(nullable(DateString)),
  endDate: Type.Optional(nullable(DateString)),
  recurrenceActive: Type.Optional(Type.Boolean()),
};

export const BillCreate = named(
  'BillCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactId: uuid({ description: 'A SUPPLIER contact of the tenant' }),
      billNumber: Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          "The supplier's own number. The same supplier's number twice (trimmed, any case; void and deleted bills " +
          'do not count) is 409 DUPLICATE_BILL_NUMBER naming the existing bill',
      }),
      issueDate: DateString,
      dueDate: Type.String({ format: 'date', description: 'Must not be before issueDate' }),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Default ZAR' })),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
      notes: Type.Optional(Type.String({ maxLength: 4000 })),
      category: Type.Optional(Type.String({ maxLength: 100 })),
      supplierVatNumber: Type.Optional(
        Type.String({
          maxLength: 20,
          description: "The supplier's VAT number on its tax invoice; default the contact's vatNumber",
        }),
      ),
      costCentreId: Type.Optional(nullable(Uuid)),
      purchaseOrderId: Type.Optional(nullable(Uuid)),
      purchaseOrderNumber: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
      ...recurrence,
      lines: Type.Array(BillLineInput, { minItems: 1, maxItems: 500 }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          contactId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10',
          billNumber: 'SUP-1001',
          issueDate: '2026-03-02',
          dueDate: '2026-04-01',
          lines: [{ description: 'Office rent, March', quantity: 1, unitPrice: 1000 }],
        },
      ],
    },
  ),
);

/** What a bill line and a supplier credit note line answer alike. */
const taxedLineOut = {
  lineNo: Type.Integer(),
  description: Type.String(),
  quantity: Type.Number(),
  unitPrice: Type.Number(),
  taxCode: BillTaxCode,
  vatRate: Type.Number(),
  accountId: Uuid,
  netAmount: Type.Number(),
  vatAmount: Type.Number(),
  totalAmount: Type.Number(),
};

export const BillLine = named(
  'BillLine',
  Type.Object({
    id: Uuid,
    ...taxedLineOut,
    costCentreId: nullable(Uuid),
    productId: nullable(Uuid),
    variantId: nullable(Uuid),
    ...lineStockOut,
    purchaseOrderLineId: nullable(Uuid, { description: 'The purchase order line it bills' }),
  }),
);

export const Bill = named(
  'Bill',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    companyId: Uuid,
    contactId: Uuid,
    vendor: Type.String({ description: "The supplier contact's name" }),
    billNumber: Type.String(),
    reference: nullable(Type.String()),
    notes: nullable(Type.String()),
    category: nullable(Type.String()),
    status: BillStatus,
    currency: Type.String(),
    issueDate: DateString,
    dueDate: DateString,
    subtotal: Type.Number({ description: 'Sum of the line nets' }),
    vatAmount: Type.Number(),
    vatRate: nullable(Type.Number(), { description: 'The rate of its standard-rated lines; null when none' }),
    amount: Type.Number({ description: 'The total, VAT included' }),
    amountPaid: Type.Number(),
    amountCredited: Type.Number({ description: 'By supplier credit notes (offset and refunded)' }),
    amountDue: Type.Number({ description: 'The total less payments and offset credit notes' }),
    supplierVatNumber: nullable(Type.String()),
    vatWarning: nullable(Type.String(), {
      description: 'Why the input tax claimed may not stand (an abridged tax invoice without a VAT number)',
    }),
    costCentreId: nullable(Uuid),
    purchaseOrderId: nullable(Uuid),
    purchaseOrderNumber: nullable(Type.String()),
    receiptMismatch: nullable(Type.String(), {
      description:
        'Why the bill is held: it bills more than was received on its purchase order (per order line, or in ' +
        'value where its lines name none); approving it needs acceptMismatch',
    }),
    recurring: Type.Boolean(),
    frequency: nullable(BillFrequency),
    nextDate: nullable(DateString),
    endDate: nullable(DateString),
    recurrenceActive: Type.Boolean(),
    recurrenceError: nullable(Type.String(), {
      description: 'Why the last run made no bill (the recurrence is paused until resumed)',
    }),
    recurringFromId: nullable(Uuid, { description: 'The recurring bill this one was made from' }),
    rejectionReason: nullable(Type.String()),
    onHold: Type.Boolean({ description: 'Held: neither a payment run nor a single payment pays it' }),
    holdReason: nullable(Type.String()),
    disputed: Type.Boolean({ description: 'Disputed with the supplier: not paid until resolved' }),
    disputeReason: nullable(Type.String()),
    entryId: nullable(Uuid),
    voidEntryId: nullable(Uuid),
    approvedAt: nullable(Timestamp),
    paidAt: nullable(Timestamp),
    voidedAt: nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp),
    ledgerNotice: Type.Optional(Type.String({ description: 'What the ledger did (on a void)' })),
    lines: Type.Array(BillLine),
  }),
);

// The sales documents' sort keys and order: number is the supplier's bill number here.
export { INVOICE_DEFAULT_SORT as BILL_DEFAULT_SORT, INVOICE_SORT_KEYS as BILL_SORT_KEYS };

export const BillListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(INVOICE_SORT_KEYS, INVOICE_DEFAULT_SORT),
  status: Type.Optional(BillStatus),
  contactId: Type.Optional(Uuid),
  from: Type.Optional(Type.String({ format: 'date', description: 'Issued on or after' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Issued on or before' })),
  dueBefore: Type.Optional(Type.String({ format: 'date', description: 'Due on or before' })),
});

export const BillApprove = named(
  'BillApprove',
  Type.Object(
    {
      acceptMismatch: Type.Optional(
        Type.Boolean({
          description:
            'Approve a bill that bills more than was received on its purchase order (receiptMismatch): without ' +
            'it such a bill is 409 RECEIPT_MISMATCH',
        }),
      ),
    },
    { additionalProperties: false, examples: [{ acceptMismatch: true }] },
  ),
);

export const BillReject = named(
  'BillReject',
  Type.Object(
    { reason: Type.String({ minLength: 1, maxLength: 1000 }) },
    { additionalProperties: false, examples: [{ reason: 'Not ordered by us' }] },
  ),
);

export const BillPaymentCreate = named(
  'BillPaymentCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      amount: Type.Number({ exclusiveMinimum: 0, description: 'At most what is due on the bill' }),
      date: Type.String({ format: 'date', description: 'Not before the issue date' }),
      bankAccountId: Type.Optional(uuid({ description: 'A bank account of the chart; default Bank (1000)' })),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
    },
    { additionalProperties: false, examples: [{ amount: 100, date: '2026-03-15', reference: 'EFT 991' }] },
  ),
);

export const BillPayment = named(
  'BillPayment',
  Type.Object({
    id: Uuid,
    billId: Uuid,
    amount: Type.Number(),
    date: DateString,
    reference: nullable(Type.String()),
    bankAccountId: Uuid,
    entryId: Uuid,
    status: stringEnum(['paid', 'reversed'] as const, { description: 'reversed: its entry was reversed' }),
    reversedAt: nullable(Timestamp),
    reversalEntryId: nullable(Uuid),
    createdAt: Timestamp,
  }),
);

export const LedgerNotice = named(
  'BillLedgerNotice',
  Type.Object({ ledgerNotice: Type.String({ description: 'What the ledger did' }) }),
);

/** The data of bill.rejected. */
export const BillRejected = named(
  'BillRejected',
  Type.Object({
    billId: Uuid,
    billNumber: Type.String(),
    contactId: Uuid,
    vendor: Type.String(),
    subtotal: Type.Number(),
    vatAmount: Type.Number(),
    amount: Type.Number(),
    reason: Type.String(),
    rejectedAt: Timestamp,
  }),
);

export const CreditSettlement = named(
  'SupplierCreditSettlement',
  stringEnum(['offset', 'refund'] as const, {
    description:
      'offset: it reduces what is owed on the bill (never more than is due on it); refund: the supplier paid it ' +
      'back into the bank (never more than was paid on the bill)',
  }),
);

export const SupplierCreditNoteCreate = named(
  'SupplierCreditNoteCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      billId: uuid({ description: 'The approved bill it credits' }),
      creditNoteNumber: Type.String({
        minLength: 1,
        maxLength: 100,
        description: "The supplier's own number",
      }),
      issueDate: Type.String({ format: 'date', description: "Not before the bill's issue date" }),
      reason: Type.Optional(Type.String({ maxLength: 1000 })),
      settlement: CreditSettlement,
      bankAccountId: Type.Optional(
        uuid({
          description: 'A refund: the bank account it came into; default Bank (1000)',
        }),
      ),
      supplierReturnId: Type.Optional(nullable(Uuid)),
      lines: Type.Array(
        Type.Object(
          {
            ...taxedLineProperties,
            accountId: Type.Optional(
              uuid({
                description: "Default: the account of the bill's first line with the same tax code",
              }),
            ),
            productId: Type.Optional(
              nullable(Uuid, {
                description:
                  'The product sent back: a tracked one leaves stock at the cost it came in with on this bill ' +
                  '(409 INSUFFICIENT_STOCK when the goods are gone)',
              }),
            ),
            variantId: Type.Optional(
              nullable(Uuid, { description: 'The variant sent back, when the product has variants' }),
            ),
            ...salesLineStock,
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 500 },
      ),
    },
    {
      additionalProperties: false,
      examples: [
        {
          billId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10',
          creditNoteNumber: 'SCN-77',
          issueDate: '2026-03-05',
          settlement: 'offset',
          reason: 'Damaged paper returned',
          lines: [{ description: 'Printer paper returned', quantity: 1, unitPrice: 100 }],
        },
      ],
    },
  ),
);

export const SupplierCreditNote = named(
  'SupplierCreditNote',
  Type.Object({
    id: Uuid,
    creditNoteNumber: Type.String(),
    creditedBillId: Uuid,
    creditedBillNumber: Type.String(),
    contactId: Uuid,
    supplierName: Type.String(),
    settlement: CreditSettlement,
    status: stringEnum(['applied', 'refunded', 'void'] as const, {
      description: 'applied: offset against the bill; refunded: paid back by the supplier',
    }),
    reason: nullable(Type.String()),
    supplierReturnId: nullable(Uuid),
    issueDate: DateString,
    net: Type.Number(),
    vat: Type.Number(),
    total: Type.Number(),
    bankAccountId: nullable(Uuid),
    refundedAt: nullable(Timestamp),
    entryId: Uuid,
    createdAt: Timestamp,
    lines: Type.Array(
      Type.Object({ ...taxedLineOut, productId: nullable(Uuid), variantId: nullable(Uuid), ...lineStockOut }),
    ),
  }),
);

export const SupplierCreditNoteListQuery = Type.Object({
  billId: Type.Optional(Uuid),
  contactId: Type.Optional(Uuid),
});

export const BillUpdate = named(
  'BillUpdate',
  Type.Object(
    {
      reference: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
      notes: Type.Optional(nullable(Type.String({ maxLength: 4000 }))),
      category: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
      dueDate: Type.Optional(Type.String({ format: 'date', description: 'Not before the issue date' })),
      lines: Type.Optional(
        Type.Array(BillLineInput, {
          minItems: 1,
          maxItems: 500,
          description:
            "The bill's lines, replacing the old ones whole (a draft or a bill awaiting approval): the supplier's " +
            'quantities and prices as invoiced, checked and priced as on create',
        }),
      ),
      ...recurrence,
    },
    {
      additionalProperties: false,
      examples: [
        { recurrenceActive: true, nextDate: '2026-05-01' },
        {
          lines: [
            {
              description: 'Bolts',
              quantity: 60,
              unitPrice: 23,
              purchaseOrderLineId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10',
            },
          ],
        },
      ],
    },
  ),
);
