// Schemas of opportunities: the record with its lines and stage, its create and change bodies,
// the list's query, won/lost/reopen and the quote made from a won one.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid, uuidOrNull } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { OPPORTUNITY_STATUSES } from './crm.tables.ts';

const Ts = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });

export const OpportunityStatus = named(
  'OpportunityStatus',
  stringEnum(OPPORTUNITY_STATUSES, { description: 'open (in the pipeline), won or lost' }),
);

const MAX_MONEY = 999_999_999_999.99;

export const OpportunityLineInput = named(
  'OpportunityLineInput',
  Type.Object(
    {
      productId: Type.Optional(
        uuid({
          description: "A product of the tenant's (else 400): description and unitPrice default to its own",
        }),
      ),
      description: Type.Optional(
        Type.String({ minLength: 1, maxLength: 1000, description: 'Required without productId' }),
      ),
      quantity: Type.Number({
        exclusiveMinimum: 0,
        maximum: 1_000_000_000,
        description: 'More than 0, up to four decimals',
      }),
      unitPrice: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: MAX_MONEY,
          description:
            "Excluding VAT, up to two decimals; default the product's price (required without productId)",
        }),
      ),
      discountPercent: Type.Optional(
        Type.Number({ minimum: 0, maximum: 100, description: 'Percent off the line (10 = 10%); default 0' }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const OpportunityLine = named(
  'OpportunityLine',
  Type.Object({
    lineNo: Type.Integer(),
    productId: nullable(Uuid),
    description: Type.String(),
    quantity: Type.Number(),
    unitPrice: Type.Number(),
    discountPercent: Type.Number(),
    amount: Type.Number({
      description: 'quantity × unitPrice × (1 − discountPercent/100), rounded half-up to cents',
    }),
  }),
);

const StageRef = Type.Object({
  id: Uuid,
  name: Type.String(),
  probability: Type.Number({ description: 'Percent' }),
});

export const Opportunity = named(
  'Opportunity',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    leadId: nullable(Uuid),
    contactId: nullable(Uuid),
    stage: StageRef,
    ownerId: nullable(Uuid),
    currency: Type.String(),
    amount: Type.Number({ description: "The lines' total when it has lines, else the amount given" }),
    weightedAmount: Type.Number({
      description:
        "Open: amount × the stage's probability / 100, rounded half-up to cents. Won: amount. Lost: 0.",
    }),
    expectedCloseDate: nullable(Day),
    status: OpportunityStatus,
    closeReason: nullable(Type.String()),
    closedAt: nullable(Ts),
    quoteId: nullable(Uuid, { description: 'The quote made from it (POST …/quote)' }),
    quoteCompanyId: nullable(Uuid, { description: "The quote's company (GET /api/invoices/{id} with it)" }),
    quoteNumber: nullable(Type.String()),
    lines: Type.Array(OpportunityLine),
    createdAt: Ts,
    updatedAt: Ts,
    deletedAt: nullable(Ts, {
      description: 'Set on a deleted one; only a list read with updatedSince shows it',
    }),
  }),
);

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Amount = Type.Number({
  minimum: 0,
  maximum: MAX_MONEY,
  description: 'The value when there are no lines (two decimals); with lines, their total is the amount',
});
const Lines = Type.Array(OpportunityLineInput, { maxItems: 200 });

export const OpportunityCreate = named(
  'OpportunityCreate',
  Type.Object(
    {
      name: Name,
      contactId: Type.Optional(uuid({ description: "A contact of the tenant's" })),
      stageId: Type.Optional(uuid({ description: 'Default: the first stage' })),
      ownerId: Type.Optional(uuid({ description: "A user of the tenant's; default the caller (a person)" })),
      expectedCloseDate: Type.Optional(Day),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Default ZAR' })),
      amount: Type.Optional(Amount),
      lines: Type.Optional(Lines),
    },
    {
      additionalProperties: false,
      examples: [
        {
          name: 'Shopfitting, Rosebank branch',
          expectedCloseDate: '2026-06-30',
          lines: [{ description: 'Display units', quantity: 2, unitPrice: 1000, discountPercent: 10 }],
        },
      ],
    },
  ),
);

export const OpportunityUpdate = named(
  'OpportunityUpdate',
  Type.Object(
    {
      name: Type.Optional(Name),
      contactId: Type.Optional(uuidOrNull()),
      stageId: Type.Optional(uuid({ description: 'Only while open' })),
      ownerId: Type.Optional(uuidOrNull()),
      expectedCloseDate: Type.Optional(orNull<string>({ type: 'string', format: 'date' })),
      amount: Type.Optional(Amount),
      lines: Type.Optional(Lines),
    },
    {
      additionalProperties: false,
      description: 'Only the fields sent change; lines, when sent, replace the lines whole; null clears',
      examples: [{ expectedCloseDate: '2026-07-31' }],
    },
  ),
);

/** date: the expected close date (those without one last ascending). */
export const OPPORTUNITY_SORT_KEYS = ['createdAt', 'updatedAt', 'date'] as const;
export type OpportunitySortKey = (typeof OPPORTUNITY_SORT_KEYS)[number];
export const OPPORTUNITY_DEFAULT_SORT = 'createdAt';

export const OpportunityListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(OPPORTUNITY_SORT_KEYS, OPPORTUNITY_DEFAULT_SORT),
  status: Type.Optional(OpportunityStatus),
  stageId: Type.Optional(Uuid),
  ownerId: Type.Optional(Uuid),
  contactId: Type.Optional(Uuid),
});

export const WonBody = named(
  'OpportunityWon',
  Type.Object(
    { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) },
    { additionalProperties: false, examples: [{ reason: 'Best price and delivery date' }] },
  ),
);

export const LostBody = named(
  'OpportunityLost',
  Type.Object(
    { reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Why it was lost (required)' }) },
    { additionalProperties: false, examples: [{ reason: 'Went with a competitor' }] },
  ),
);

export const QuoteBody = named(
  'OpportunityQuote',
  Type.Object(
    {
      companyId: uuid({
        description:
          "The tenant's company that issues the quote (the CRM is tenant-wide, so it is named here)",
      }),
      date: Type.Optional(
        Type.String({ format: 'date', description: 'The issue date; default today (UTC)' }),
      ),
      validDays: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 365, description: 'Valid until date + validDays; default 30' }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ companyId: '3f0c9a52-5b1e-4a53-9a53-0d3b1d6a9e10', date: '2026-06-30' }],
    },
  ),
);
