import { Type } from 'typebox';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { LineInput } from './invoices.schemas.ts';
import { FREQUENCIES } from './recurring.dates.ts';

const DateString = Type.String({ format: 'date' });
const Uuid = Type.String({ format: 'uuid' });

export const RECURRING_STATUSES = ['active', 'paused', 'ended'] as const;
export type RecurringStatus = (typeof RECURRING_STATUSES)[number];

const frequency = Type.String({
  maxLength: 40,
  description: `One of ${FREQUENCIES.join(', ')} (any case); anything else is a 400 naming it`,
});
const interval = Type.Integer({
  minimum: 1,
  maximum: 24,
  description: 'Every n periods: 2 with monthly is every second month. Default 1',
});
const documentType = Type.String({
  maxLength: 40,
  description: 'invoice (the default, and the only type a schedule makes)',
});
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

export const RecurringCreate = Type.Object(
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
  { examples: [createExample] },
);

export const RecurringUpdate = Type.Object(
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
    templateId: Type.Optional(orNull<string>({ type: 'string', format: 'uuid' })),
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
  { examples: [{ active: false }] },
);

export const RecurringLine = Type.Object({
  lineNo: Type.Integer(),
  description: Type.String(),
  quantity: Type.Number(),
  unitPrice: Type.Number(),
  discountRate: nullable(Type.Number()),
  vatRate: nullable(Type.Number(), {
    description: 'null: the standard rate on each document’s issue date',
  }),
  accountId: nullable(Uuid, { description: 'null: Sales' }),
});

export const Recurring = Type.Object({
  id: Uuid,
  companyId: Uuid,
  contactId: Uuid,
  contactName: Type.String(),
  documentType: Type.Literal('invoice'),
  frequency: Type.Union(FREQUENCIES.map((f) => Type.Literal(f))),
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
  status: Type.Union(
    RECURRING_STATUSES.map((s) => Type.Literal(s)),
    { description: 'ended: past endDate (derived)' },
  ),
  lastRunDate: nullable(DateString, { description: 'The last period a run made' }),
  lastError: nullable(Type.String(), {
    description:
      'What went wrong with the last run, if anything (the schedule is paused when nothing was made)',
  }),
  documentCount: Type.Integer({ description: 'Documents it has made' }),
  lines: Type.Array(RecurringLine),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const RecurringListQuery = Type.Object({
  ...pageQueryProperties,
  status: Type.Optional(
    Type.String({
      maxLength: 40,
      description: `One of ${RECURRING_STATUSES.join(', ')}; anything else is a 400`,
    }),
  ),
  contactId: Type.Optional(Uuid),
});
