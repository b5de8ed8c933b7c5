import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuidOrNull } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { FREQUENCIES } from '../../platform/schedules/recurring-dates.ts';
import { LineInput, SalesTaxCode } from './invoices.schemas.ts';
import { RECURRING_TYPES } from './recurring.tables.ts';

const DateString = Type.String({ format: 'date' });

export const RECURRING_STATUSES = ['active', 'paused', 'ended'] as const;
export type RecurringStatus = (typeof RECURRING_STATUSES)[number];

export const RecurringStatusSchema = named(
  'RecurringStatus',
  stringEnum(RECURRING_STATUSES, { description: 'paused: active false; ended: past endDate (derived)' }),
);

const frequency = named(
  'RecurringFrequency',
  stringEnum(FREQUENCIES, { description: 'How often a document is made (every `interval` of these)' }),
);
const interval = Type.Integer({
  minimum: 1,
  maximum: 24,
  description: 'Every n periods: 2 with monthly is every second month. Default 1',
});
const documentType = named(
  'RecurringDocumentType',
  stringEnum(RECURRING_TYPES, { description: 'What each run makes: invoices only' }),
);
const paymentTermsDays = Type.Integer({
  minimum: 0,
  maximum: 3650,
  description:
    "Each document is due this many days after its issue date. Default: the contact's payment terms",
});
const autoRelease = Type.Boolean({
  description:
    'Release each document as it is made (it posts to the ledger in the same transaction); otherwise it ' +
    'stays a draft. Needs the company’s base currency. Default false',
});
const autoSend = Type.Boolean({
  description:
    "E-mail each document, with its PDF, to the customer's e-mail address as it is made and released, in the " +
    'run that makes it (once per document). Needs autoRelease and a customer with an e-mail address (400 naming ' +
    'autoSend otherwise). A send refused at run time (the address removed since) leaves the document unsent ' +
    'and says so in lastError. Default false',
});

const createExample = {
  contactId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10',
  frequency: 'monthly',
  startDate: '2027-01-01',
  paymentTermsDays: 30,
  reference: 'Retainer',
  autoRelease: true,
  lines: [{ description: 'Monthly bookkeeping retainer', quantity: 1, unitPrice: 4500 }],
};

export const RecurringCreate = named(
  'RecurringInvoiceCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactId: Uuid,
      documentType: Type.Optional(documentType),
      frequency,
      interval: Type.Optional(interval),
      startDate: Type.String({
        format: 'date',
        description:
          'The first document’s issue date. In the past: every period due so far is made at once, in order',
      }),
      endDate: Type.Optional(
        Type.String({ format: 'date', description: 'No document after this date. Not before startDate' }),
      ),
      paymentTermsDays: Type.Optional(paymentTermsDays),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Default ZAR' })),
      reference: Type.Optional(Type.String({ maxLength: 200 })),
      terms: Type.Optional(Type.String({ maxLength: 4000 })),
      notes: Type.Optional(Type.String({ maxLength: 4000 })),
      templateId: Type.Optional(Uuid),
      autoRelease: Type.Optional(autoRelease),
      autoSend: Type.Optional(autoSend),
      active: Type.Optional(Type.Boolean({ description: 'false: created paused. Default true' })),
      lines: Type.Array(LineInput, { minItems: 1, maxItems: 500 }),
    },
    { additionalProperties: false, examples: [createExample] },
  ),
);

export const RecurringUpdate = named(
  'RecurringInvoiceUpdate',
  Type.Object(
    {
      contactId: Type.Optional(Uuid),
      frequency: Type.Optional(frequency),
      interval: Type.Optional(interval),
      startDate: Type.Optional(
        Type.String({ format: 'date', description: 'Only before the first document is made' }),
      ),
      nextDate: Type.Optional(
        Type.String({
          format: 'date',
          description:
            'Moves the next run (and the series: later runs count from it). Not before startDate, and after the ' +
            'last period already made',
        }),
      ),
      endDate: Type.Optional(orNull<string>({ type: 'string', format: 'date', description: 'null: no end' })),
      paymentTermsDays: Type.Optional(paymentTermsDays),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
      reference: Type.Optional(orNull<string>({ type: 'string', maxLength: 200 })),
      terms: Type.Optional(orNull<string>({ type: 'string', maxLength: 4000 })),
      notes: Type.Optional(orNull<string>({ type: 'string', maxLength: 4000 })),
      templateId: Type.Optional(uuidOrNull()),
      autoRelease: Type.Optional(autoRelease),
      autoSend: Type.Optional(autoSend),
      active: Type.Optional(
        Type.Boolean({
          description:
            'false pauses; true resumes. On resume a nextDate that has passed moves to the first run date from ' +
            'today (periods passed while paused are not made) unless nextDate is given too',
        }),
      ),
      lines: Type.Optional(Type.Array(LineInput, { minItems: 1, maxItems: 500 })),
    },
    { additionalProperties: false, examples: [{ active: false }] },
  ),
);

export const RecurringLine = named(
  'RecurringInvoiceLine',
  Type.Object({
    lineNo: Type.Integer(),
    description: Type.String(),
    quantity: Type.Number(),
    unitPrice: Type.Number(),
    discountRate: nullable(Type.Number()),
    taxCode: nullable(SalesTaxCode, {
      description: 'null: from vatRate (0: zero), or standard; the rate follows each document’s issue date',
    }),
    vatRate: nullable(Type.Number(), {
      description: 'As sent; null: the rate of the tax code on each document’s issue date',
    }),
    accountId: nullable(Uuid, { description: 'null: Sales' }),
    productId: nullable(Uuid, {
      description: 'The product each document sells (its stock moves when released)',
    }),
    variantId: nullable(Uuid),
    unit: nullable(Type.String(), { description: "null: the product's base unit" }),
    batchCode: nullable(Type.String(), { description: 'null: each document picks by FEFO' }),
  }),
);

export const Recurring = named(
  'RecurringInvoice',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    contactId: Uuid,
    contactName: Type.String(),
    documentType,
    frequency,
    interval: Type.Integer(),
    startDate: DateString,
    nextDate: nullable(DateString, {
      description: 'The issue date of the next document; null once the schedule has ended',
    }),
    endDate: nullable(DateString),
    paymentTermsDays: Type.Integer(),
    currency: Type.String(),
    reference: nullable(Type.String()),
    terms: nullable(Type.String()),
    notes: nullable(Type.String()),
    templateId: nullable(Uuid),
    autoRelease: Type.Boolean(),
    autoSend: Type.Boolean(),
    active: Type.Boolean({ description: 'false: paused' }),
    status: RecurringStatusSchema,
    lastRunDate: nullable(DateString, { description: 'The last period a run made' }),
    lastError: nullable(Type.String(), {
      description:
        'What went wrong with the last run, if anything (the schedule is paused when nothing was made)',
    }),
    documentCount: Type.Integer({ description: 'Documents it has made' }),
    lines: Type.Array(RecurringLine),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({
      format: 'date-time',
      description: 'Moves on every change of the schedule, a run included',
    }),
    deletedAt: nullable(Type.String({ format: 'date-time' }), {
      description:
        'A deleted schedule: when it was deleted. Only lists given updatedSince show one; otherwise null',
    }),
  }),
);

/** The sort keys GET /api/recurring offers (date: the next run date), and its order when none is given. */
export const RECURRING_SORT_KEYS = ['updatedAt', 'createdAt', 'date'] as const;
export const RECURRING_DEFAULT_SORT = 'date';

export const RecurringListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(RECURRING_SORT_KEYS, RECURRING_DEFAULT_SORT),
  status: Type.Optional(RecurringStatusSchema),
  contactId: Type.Optional(Uuid),
});
