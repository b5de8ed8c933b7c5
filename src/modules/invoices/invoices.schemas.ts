import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { DOCUMENT_TYPES, STATUSES } from './invoices.tables.ts';

const DateString = Type.String({ format: 'date' });
const Uuid = Type.String({ format: 'uuid' });

export const DocumentTypeSchema = Type.Enum(DOCUMENT_TYPES, {
  description: 'Lowercase. Only invoice, credit_note, debit_note, cash_sale and deposit post to the ledger.',
});

export const LineInput = Type.Object({
  description: Type.String({ minLength: 1, maxLength: 1000 }),
  quantity: Type.Number({ description: 'Up to four decimals' }),
  unitPrice: Type.Number({ description: 'Excluding VAT; up to four decimals' }),
  discountRate: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, description: 'Percent off the line (10 = 10%)' }),
  ),
  vatRate: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description:
        'Percent. Absent: the standard rate on the issue date (15%, 14% before 2018-04-01). 0: zero-rated. ' +
        'Ignored (no VAT) when the company is not VAT-registered on the issue date.',
    }),
  ),
  accountId: Type.Optional(
    Type.String({ format: 'uuid', description: 'The income account it posts to; default Sales (4000)' }),
  ),
});

const createExample = {
  contactId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10',
  documentType: 'invoice',
  issueDate: '2026-03-02',
  dueDate: '2026-04-01',
  paymentTermsDays: 30,
  lines: [{ description: 'Consulting, March', quantity: 3, unitPrice: 333.33 }],
};

export const InvoiceCreate = Type.Object(
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
    creditedInvoiceId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'A credit note: the released invoice it credits (applied on release)',
      }),
    ),
    templateId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "How its PDF looks: a template of the company. Default: the settings' default template",
      }),
    ),
    lines: Type.Array(LineInput, { minItems: 1, maxItems: 500 }),
  },
  { examples: [createExample] },
);

export const InvoiceUpdate = Type.Object({
  contactId: Type.Optional(Uuid),
  issueDate: Type.Optional(DateString),
  dueDate: Type.Optional(DateString),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  paymentTermsDays: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 3650 }))),
  terms: Type.Optional(nullable(Type.String({ maxLength: 4000 }))),
  reference: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
  notes: Type.Optional(nullable(Type.String({ maxLength: 4000 }))),
  creditedInvoiceId: Type.Optional(nullable(Type.String({ format: 'uuid' }))),
  templateId: Type.Optional(nullable(Type.String({ format: 'uuid' }))),
  lines: Type.Optional(Type.Array(LineInput, { minItems: 1, maxItems: 500 })),
});

export const InvoiceLine = Type.Object({
  id: Uuid,
  lineNo: Type.Integer(),
  description: Type.String(),
  quantity: Type.Number(),
  unitPrice: Type.Number(),
  discountRate: Type.Number(),
  vatRate: Type.Number({ description: 'The rate applied' }),
  accountId: Uuid,
  discountAmount: Type.Number(),
  netAmount: Type.Number({ description: 'After the discount, excluding VAT, rounded half-up to cents' }),
  vatAmount: Type.Number(),
  totalAmount: Type.Number(),
});

export const Invoice = Type.Object({
  id: Uuid,
  companyId: Uuid,
  documentType: DocumentTypeSchema,
  number: Type.String(),
  status: Type.Enum(STATUSES, {
    description: 'overdue is derived: open or partially paid, and past its due date',
  }),
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
  amountPaid: Type.Number({ description: 'Payments, and deposits applied' }),
  amountCredited: Type.Number({ description: 'Credit notes applied' }),
  amountDue: Type.Number(),
  creditedInvoiceId: nullable(Uuid),
  convertedFromId: nullable(Uuid),
  recurringId: nullable(Uuid),
  templateId: nullable(Uuid),
  entryId: nullable(Type.String({ format: 'uuid', description: 'The journal entry its release posted' })),
  voidEntryId: nullable(Type.String({ format: 'uuid', description: 'The reversal its void posted' })),
  releasedAt: nullable(Type.String({ format: 'date-time' })),
  voidedAt: nullable(Type.String({ format: 'date-time' })),
  sentAt: nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  lines: Type.Array(InvoiceLine),
});

export const InvoiceListQuery = Type.Object({
  ...pageQueryProperties,
  status: Type.Optional(
    Type.String({ description: `One of ${STATUSES.join(', ')}; anything else is a 400`, maxLength: 40 }),
  ),
  documentType: Type.Optional(
    Type.String({
      description: `One of ${DOCUMENT_TYPES.join(', ')}; anything else is a 400`,
      maxLength: 40,
    }),
  ),
  contactId: Type.Optional(Uuid),
  from: Type.Optional(Type.String({ format: 'date', description: 'Issued on or after' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Issued on or before' })),
  dueFrom: Type.Optional(Type.String({ format: 'date' })),
  dueTo: Type.Optional(Type.String({ format: 'date' })),
});

export const ConvertBody = Type.Object(
  {
    documentType: DocumentTypeSchema,
    clientId: clientIdProperty,
  },
  { examples: [{ documentType: 'invoice' }] },
);

export const IdParams = Type.Object({ id: Uuid });

export const SendBody = Type.Object(
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
  { examples: [{ to: 'accounts@example.co.za', message: 'Thank you for your order.' }] },
);

export const SendResult = Type.Object({
  emailId: Uuid,
  to: Type.String(),
  status: Type.Enum(['queued', 'stored'], {
    description: 'queued: the job worker sends it over SMTP; stored: no SMTP is configured, it is kept',
  }),
  subject: Type.String(),
  sentAt: Type.String({ format: 'date-time', description: "Also the document's sentAt" }),
});

export const PdfFile = Type.String({
  contentMediaType: 'application/pdf',
  description: 'The document as a PDF (A4); Content-Disposition names the file, e.g. INV-0001.pdf',
});
