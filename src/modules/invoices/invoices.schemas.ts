import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { SALES_TAX_CODES } from '../../platform/money/vat-rate.ts';
import { lineStockOut, salesLineStock } from '../inventory/index.ts';
import { DOCUMENT_TYPES, STATUSES } from './invoices.tables.ts';

const DateString = Type.String({ format: 'date' });
const Timestamp = Type.String({ format: 'date-time' });

export const DocumentTypeSchema = named(
  'DocumentType',
  stringEnum(DOCUMENT_TYPES, {
    description:
      'The kind of sales document (lowercase). Only invoice, credit_note, debit_note, cash_sale and deposit post to the ledger.',
  }),
);

export const InvoiceStatus = named(
  'InvoiceStatus',
  stringEnum(STATUSES, {
    description:
      'draft until released; open, partially_paid and paid follow what is due; overdue is derived (an open or ' +
      'partly paid invoice or debit note past its due date); applied: a credit note whose whole amount has ' +
      'been applied to invoices (open again when an allocation is reversed); written_off: an invoice or debit ' +
      'note nothing is due on after a bad debt was written off (POST /api/invoices/{id}/write-off); refunded: a credit note or deposit ' +
      'nothing remains of after some of it was refunded (POST /api/customer-credits/{id}/refunds); forfeited: a deposit ' +
      'the customer forfeited (POST /api/invoices/{id}/forfeit); void after ' +
      'a void; accepted, ' +
      'declined and converted are what became of a quote or pro forma.',
  }),
);

/**
 * A sales line's tax code. The ledger's TaxCode (journal lines) names the codes the VAT report
 * reads, input ones included; a sales line takes the output ones below, and out_of_scope, which
 * posts untagged (no VAT201 field).
 */
export const SalesTaxCode = named(
  'SalesTaxCode',
  stringEnum(SALES_TAX_CODES, {
    description:
      'How a sales line is taxed; the rate follows from the code and the issue date. standard: 15% ' +
      '(14% before 2018-04-01), VAT Act s7(1)(a), VAT201 field 1; zero: zero-rated goods and services, ' +
      's11(1), field 2; zero_export: zero-rated exports, s11(1)(a), field 2A; exempt: exempt supplies, ' +
      's12, field 3; accommodation_short: commercial accommodation of 28 days or less, the standard rate, ' +
      'field 7; accommodation_long: of more than 28 days, the standard rate on 60% of the value (s10(10)), VAT ' +
      'rounded half-up per line, field 5; out_of_scope: not a supply for VAT, in no field. No VAT whatever the code when the ' +
      'company is not VAT-registered on the issue date.',
  }),
);

export const LineInput = named(
  'InvoiceLineInput',
  Type.Object(
    {
      description: Type.String({ minLength: 1, maxLength: 1000 }),
      quantity: Type.Number({ description: 'Up to four decimals' }),
      unitPrice: Type.Number({
        description:
          'Excluding VAT; up to four decimals. A negative line (a discount, an item returned) is allowed ' +
          "as long as the document's total is not negative",
      }),
      discountRate: Type.Optional(
        Type.Number({ minimum: 0, maximum: 100, description: 'Percent off the line (10 = 10%)' }),
      ),
      taxCode: Type.Optional(SalesTaxCode),
      vatRate: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: 100,
          description:
            'Percent, instead of taxCode: 0 means zero, the standard rate on the issue date (15%, 14% before ' +
            '2018-04-01) means standard; any other rate, or one that disagrees with taxCode, is refused. ' +
            'Neither given: standard.',
        }),
      ),
      accountId: Type.Optional(uuid({ description: 'The income account it posts to; default Sales (4000)' })),
      productId: Type.Optional(
        uuid({
          description:
            'The product the line sells (a live product of the products book). Releasing the document moves ' +
            'its stock when the product is tracked.',
        }),
      ),
      variantId: Type.Optional(uuid({ description: 'The variant of the product, when it has variants' })),
      ...salesLineStock,
    },
    { additionalProperties: false, description: 'A line of a document as it is sent' },
  ),
);

/**
 * A sales document's line as sent: unitPrice may be left out when the line names a product (it
 * takes the contact's price list price, else the variant's or product's own; issue 20).
 * Recurring templates keep LineInput, whose unitPrice is always given.
 */
export const SalesLineInput = named(
  'SalesLineInput',
  Type.Object(
    {
      ...LineInput.properties,
      unitPrice: Type.Optional(
        Type.Number({
          description:
            'Excluding VAT; up to four decimals. Required unless productId is given: then, when left out, the ' +
            "contact's price list price (the variant's item, else the product's), else the variant's or the " +
            "product's unitPrice. A negative line (a discount, an item returned) is allowed as long as the " +
            "document's total is not negative",
        }),
      ),
    },
    { additionalProperties: false, description: 'A line of a sales document as it is sent' },
  ),
);

const createExample = {
  contactId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10',
  documentType: 'invoice',
  issueDate: '2026-03-02',
  dueDate: '2026-04-01',
  paymentTermsDays: 30,
  lines: [{ description: 'Consulting, March', quantity: 3, unitPrice: 333.33 }],
};

export const InvoiceCreate = named(
  'InvoiceCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactId: Uuid,
      documentType: DocumentTypeSchema,
      issueDate: DateString,
      dueDate: Type.String({ format: 'date', description: 'Must not be before issueDate' }),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Default ZAR' })),
      paymentTermsDays: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 3650,
          description:
            "The credit term in days (the record of it). Default: the invoice settings' defaultPaymentTermsDays",
        }),
      ),
      terms: Type.Optional(
        Type.String({
          maxLength: 4000,
          description:
            "Free text printed on the document; sets no credit term. Default: the invoice settings' defaultTerms",
        }),
      ),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
      notes: Type.Optional(
        Type.String({
          maxLength: 4000,
          description: "Printed on the document. Default: the invoice settings' defaultNotes",
        }),
      ),
      creditedDocumentId: Type.Optional(
        uuid({
          description:
            'A credit or debit note: the released invoice or debit note it adjusts. The note takes that ' +
            "document's VAT rates and registration (the standard rate and registration of its issue date, VAT " +
            'Act s21), must not be dated before it (400 issueDate), and a credit note must not exceed what ' +
            'remains of it: its total less the credit notes already released against it (400 lines). A credit ' +
            'note is applied to it on release, up to what is due.',
        }),
      ),
      creditedInvoiceId: Type.Optional(
        uuid({
          description: 'The former name of creditedDocumentId, still accepted (both given: the same id)',
        }),
      ),
      templateId: Type.Optional(
        uuid({
          description:
            "How its PDF looks: a template of the company. Default: the settings' default template",
        }),
      ),
      lines: Type.Array(SalesLineInput, { minItems: 1, maxItems: 500 }),
    },
    { additionalProperties: false, examples: [createExample] },
  ),
);

export const InvoiceUpdate = named(
  'InvoiceUpdate',
  Type.Object(
    {
      contactId: Type.Optional(Uuid),
      issueDate: Type.Optional(DateString),
      dueDate: Type.Optional(DateString),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
      paymentTermsDays: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 3650 }))),
      terms: Type.Optional(nullable(Type.String({ maxLength: 4000 }))),
      reference: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
      notes: Type.Optional(nullable(Type.String({ maxLength: 4000 }))),
      creditedDocumentId: Type.Optional(
        nullable(uuid({ description: 'A credit or debit note: the document it adjusts' })),
      ),
      creditedInvoiceId: Type.Optional(
        nullable(uuid({ description: 'The former name of creditedDocumentId' })),
      ),
      templateId: Type.Optional(nullable(Uuid)),
      lines: Type.Optional(Type.Array(SalesLineInput, { minItems: 1, maxItems: 500 })),
    },
    {
      additionalProperties: false,
      description: 'A draft changed: only the fields given; lines replaced whole',
    },
  ),
);

export const InvoiceLine = named(
  'InvoiceLine',
  Type.Object({
    id: Uuid,
    lineNo: Type.Integer(),
    description: Type.String(),
    quantity: Type.Number(),
    unitPrice: Type.Number(),
    discountRate: Type.Number(),
    taxCode: SalesTaxCode,
    vatRate: Type.Number({
      description: 'The rate applied: from the code and the issue date (0 when not VAT-registered)',
    }),
    accountId: Uuid,
    productId: nullable(Uuid, { description: 'The product the line sells; null for a line of free text' }),
    variantId: nullable(Uuid),
    ...lineStockOut,
    discountAmount: Type.Number(),
    netAmount: Type.Number({ description: 'After the discount, excluding VAT, rounded half-up to cents' }),
    vatAmount: Type.Number(),
    totalAmount: Type.Number(),
  }),
);

export const Invoice = named(
  'Invoice',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    documentType: DocumentTypeSchema,
    number: Type.String(),
    status: InvoiceStatus,
    contactId: Uuid,
    contactName: Type.String(),
    issueDate: DateString,
    dueDate: DateString,
    currency: Type.String(),
    paymentTermsDays: nullable(Type.Integer()),
    terms: nullable(Type.String()),
    reference: nullable(Type.String()),
    notes: nullable(Type.String()),
    vatRegistered: Type.Boolean({
      description: 'The company was VAT-registered on the issue date (a Tax Invoice)',
    }),
    subtotal: Type.Number({ description: 'Sum of the line nets (after discounts, excluding VAT)' }),
    discountTotal: Type.Number(),
    vatTotal: Type.Number(),
    total: Type.Number(),
    amountPaid: Type.Number({
      description: 'Payments (less any excess), deposits and customer credits applied',
    }),
    amountCredited: Type.Number({ description: 'Credit notes applied' }),
    amountWrittenOff: Type.Number({
      description: 'Written off as a bad debt (POST /api/invoices/{id}/write-off)',
    }),
    amountRefunded: Type.Number({ description: 'A credit note or deposit: refunded' }),
    amountForfeited: Type.Number({ description: 'A deposit: forfeited' }),
    amountDue: Type.Number({
      description:
        'What is still owed: total less paid, credited and written off (an invoice or debit note); 0 for a ' +
        'released cash sale or deposit (money in hand); a credit note: its credit remaining, as amountRemaining',
    }),
    amountRemaining: Type.Number({
      description:
        'A released credit note or deposit: what is left of it to apply, refund or forfeit (a deposit applied to a ' +
        'smaller invoice: 0, its excess being a customer credit of its own); 0 for a draft and every other type',
    }),
    creditedDocumentId: nullable(
      uuid({
        description: 'A credit or debit note: the invoice or debit note it adjusts',
      }),
    ),
    creditedInvoiceId: nullable(uuid({ description: 'The same as creditedDocumentId (its former name)' })),
    convertedFromId: nullable(Uuid),
    recurringId: nullable(Uuid),
    templateId: nullable(Uuid),
    entryId: nullable(uuid({ description: 'The journal entry its release posted' })),
    voidEntryId: nullable(uuid({ description: 'The reversal its void posted' })),
    voidedByCreditNoteId: nullable(
      uuid({
        description:
          'A voided invoice or debit note: the credit note its void issued for what remained of it (VAT Act s21); ' +
          'its void posts no reversal (voidEntryId null)',
      }),
    ),
    releasedAt: nullable(Type.String({ format: 'date-time' })),
    voidedAt: nullable(Type.String({ format: 'date-time' })),
    sentAt: nullable(Type.String({ format: 'date-time' })),
    createdAt: Timestamp,
    updatedAt: Type.String({ format: 'date-time', description: 'Moves on every change of the document' }),
    deletedAt: nullable(Timestamp, {
      description:
        'A deleted draft: when it was deleted. Only lists given updatedSince show one; otherwise null',
    }),
    lines: Type.Array(InvoiceLine),
  }),
);

/** The sort keys GET /api/invoices offers, and its order when none is given. */
export const INVOICE_SORT_KEYS = ['updatedAt', 'createdAt', 'number', 'date'] as const;
export const INVOICE_DEFAULT_SORT = '-date';

export const InvoiceListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(INVOICE_SORT_KEYS, INVOICE_DEFAULT_SORT),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "Text search: the number, the reference or the customer's name contains it (any case)",
    }),
  ),
  status: Type.Optional(InvoiceStatus),
  documentType: Type.Optional(DocumentTypeSchema),
  contactId: Type.Optional(Uuid),
  from: Type.Optional(Type.String({ format: 'date', description: 'Issued on or after' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Issued on or before' })),
  dueFrom: Type.Optional(Type.String({ format: 'date' })),
  dueTo: Type.Optional(Type.String({ format: 'date' })),
});

export const ConvertBody = named(
  'InvoiceConvert',
  Type.Object(
    {
      documentType: DocumentTypeSchema,
      issueDate: Type.Optional(
        Type.String({
          format: 'date',
          description:
            "The new document's issue date; default today (UTC). Not before the converted document's issue " +
            'date (400 naming issueDate). Its dueDate is this date plus the payment terms.',
        }),
      ),
      clientId: clientIdProperty,
    },
    {
      additionalProperties: false,
      examples: [{ documentType: 'invoice' }, { documentType: 'invoice', issueDate: '2026-03-31' }],
    },
  ),
);

export const SendBody = named(
  'InvoiceSend',
  Type.Object(
    {
      to: Type.Optional(
        Type.String({
          format: 'email',
          maxLength: 254,
          description: "The address to send to; default the customer's e-mail address",
        }),
      ),
      message: Type.Optional(
        Type.String({ maxLength: 4000, description: 'Your words, at the top of the e-mail' }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ to: 'accounts@example.co.za', message: 'Thank you for your order.' }],
    },
  ),
);

export const SendStatus = named(
  'InvoiceSendStatus',
  stringEnum(['queued', 'stored'], {
    description: 'queued: the job worker sends it over SMTP; stored: no SMTP is configured, it is kept',
  }),
);

export const SendResult = named(
  'InvoiceSendResult',
  Type.Object({
    emailId: Uuid,
    to: Type.String(),
    status: SendStatus,
    subject: Type.String(),
    sentAt: Type.String({ format: 'date-time', description: "Also the document's sentAt" }),
  }),
);

export const PdfFile = Type.String({
  contentMediaType: 'application/pdf',
  description: 'The document as a PDF (A4); Content-Disposition names the file, e.g. INV-0001.pdf',
});
