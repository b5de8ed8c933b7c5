// Schemas of the bank lines as answered, their list's filters, and exclusion.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { CodingSplit, DIRECTIONS } from './bank-rules.schemas.ts';
import { BANK_TRANSACTION_STATUSES } from './banking.tables.ts';

const DateOnly = Type.String({ format: 'date' });

export const BankTransactionStatus = named(
  'BankTransactionStatus',
  stringEnum(BANK_TRANSACTION_STATUSES, {
    description:
      'unreconciled (waiting), reconciled (matched or posted), excluded (set aside, with a reason)',
  }),
);

const Coding = Type.Object(
  {
    accountId: nullable(Uuid),
    contactId: nullable(Uuid),
    taxCode: nullable(Type.String()),
    description: nullable(Type.String()),
    costCentreId: nullable(Uuid),
    splits: nullable(Type.Array(CodingSplit)),
  },
  { description: 'How the line is to be posted when reconciled: set by a rule or a person' },
);

export const BankTransaction = named(
  'BankTransaction',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    bankAccountId: Uuid,
    date: DateOnly,
    valueDate: nullable(DateOnly),
    amount: Type.Number({ description: 'Signed: + money in, - money out' }),
    direction: stringEnum(DIRECTIONS),
    description: Type.String(),
    reference: nullable(Type.String()),
    payee: nullable(Type.String()),
    externalId: nullable(
      Type.String({ description: "The source's own id (FITID, AcctSvcrRef, a feed's id)" }),
    ),
    runningBalance: nullable(Type.Number()),
    source: stringEnum(['file', 'feed'] as const),
    statementId: nullable(Uuid),
    sequence: Type.Integer({ description: 'The nth line of its date and amount in the account' }),
    pending: Type.Boolean({ description: "A feed's provisional line: replaced when it posts" }),
    supersededAt: nullable(Type.String({ format: 'date-time' })),
    status: BankTransactionStatus,
    excludedReason: nullable(Type.String()),
    reconciledAt: nullable(Type.String({ format: 'date-time' })),
    rule: nullable(Type.Object({ id: Uuid, name: Type.String() }), {
      description: 'The first bank rule that touched the line (null: none)',
    }),
    ruleAppliedAt: nullable(Type.String({ format: 'date-time' })),
    codedBy: nullable(stringEnum(['rule', 'person'] as const), {
      description: "Who set the coding; a person's coding is never overwritten by a rule",
    }),
    coding: Coding,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

const amountFilter = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^[0-9]+(\\.[0-9]{1,2})?$' })], {
    description,
  });

export const BankTransactionListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['date', 'updatedAt', 'createdAt'] as const, '-date'),
    bankAccountId: Type.Optional(Uuid),
    status: Type.Optional(BankTransactionStatus),
    from: Type.Optional(Type.String({ format: 'date', description: 'Dated on or after' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Dated on or before' })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Text in the description, reference or payee (case-insensitive)',
      }),
    ),
    amountMin: Type.Optional(
      amountFilter(
        'The size of the line (whatever its direction) at least this; with direction for in or out',
      ),
    ),
    amountMax: Type.Optional(amountFilter('The size of the line at most this')),
    direction: Type.Optional(stringEnum(DIRECTIONS, { description: 'in: money received; out: money paid' })),
    ruleId: Type.Optional(uuid({ description: 'Lines this rule touched' })),
  },
  { additionalProperties: false },
);

export const BankTransactionExclude = named(
  'BankTransactionExclude',
  Type.Object(
    { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why it is set aside' }) },
    {
      additionalProperties: false,
      examples: [{ reason: 'Transfer between our own accounts, recorded by journal' }],
    },
  ),
);
