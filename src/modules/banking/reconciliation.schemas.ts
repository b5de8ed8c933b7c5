// Request and response shapes of /api/reconciliation.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { TaxCodeSchema } from '../ledger/index.ts';
import { MATCH_KINDS } from './reconciliation.tables.ts';

const MoneyIn = Type.Union([Type.Number(), Type.String({ pattern: '^[0-9]+(\\.[0-9]{1,2})?$' })], {
  description: 'A positive amount, at most two decimals; default what is due (or the whole line)',
});
const closed = { additionalProperties: false } as const;

export const MatchCreate = named(
  'BankMatchCreate',
  Type.Object(
    {
      bankTransactionId: Uuid,
      clientId: clientIdProperty,
      invoices: Type.Optional(
        Type.Array(Type.Object({ invoiceId: Uuid, amount: Type.Optional(MoneyIn) }, closed), {
          minItems: 1,
          maxItems: 100,
          description: 'Money in: payments recorded against these invoices',
        }),
      ),
      bills: Type.Optional(
        Type.Array(Type.Object({ billId: Uuid, amount: Type.Optional(MoneyIn) }, closed), {
          minItems: 1,
          maxItems: 100,
          description: 'Money out: payments recorded against these bills',
        }),
      ),
      existing: Type.Optional(
        Type.Array(Type.Object({ journalEntryId: Uuid }, closed), {
          minItems: 1,
          maxItems: 100,
          description: 'Entries already in the books moving this bank account: linked, nothing recorded',
        }),
      ),
      create: Type.Optional(
        Type.Object(
          {
            accountId: Uuid,
            taxCode: Type.Optional(TaxCodeSchema),
            contactId: Type.Optional(Uuid),
            description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
            costCentreId: Type.Optional(Uuid),
          },
          { ...closed, description: 'Post the bank line against this account (gross, VAT by the tax code)' },
        ),
      ),
      transfer: Type.Optional(
        Type.Object(
          { bankAccountId: Uuid },
          { ...closed, description: 'Money moved to or from another bank account of the company' },
        ),
      ),
    },
    {
      ...closed,
      examples: [
        {
          bankTransactionId: '00000000-0000-4000-8000-000000000001',
          create: { accountId: '00000000-0000-4000-8000-000000000002' },
        },
      ],
    },
  ),
);

export const Match = named(
  'BankMatch',
  Type.Object({
    id: Uuid,
    bankTransactionId: Uuid,
    bankAccountId: Uuid,
    kind: stringEnum(MATCH_KINDS),
    amount: Type.Number({ description: 'The bank line’s amount, signed (+ in, - out)' }),
    auto: Type.Boolean({ description: 'Reconciled by auto-reconcile, not a person' }),
    status: stringEnum(['live', 'undone'] as const),
    items: Type.Array(
      Type.Object({
        journalEntryId: Uuid,
        invoicePaymentId: nullable(Uuid),
        invoiceId: nullable(Uuid),
        billPaymentId: nullable(Uuid),
        billId: nullable(Uuid),
        customerCreditId: nullable(Uuid),
        amount: Type.Number({ description: 'The entry’s movement on the bank account, signed' }),
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    undoneAt: nullable(Type.String({ format: 'date-time' })),
  }),
);

const SuggestionKind = stringEnum(['invoice', 'invoices', 'bill', 'existing', 'create'] as const);

export const Suggestion = named(
  'BankMatchSuggestion',
  Type.Object({
    kind: SuggestionKind,
    score: Type.Number({ minimum: 0, maximum: 1 }),
    certain: Type.Boolean({
      description: 'Exact amount and the document number in the line: auto-reconciled',
    }),
    reasons: Type.Array(Type.String()),
    label: Type.String({ description: 'What it is, e.g. INV-0042 Acme (Pty) Ltd' }),
    contactId: nullable(Uuid),
    accept: Type.Object(
      {
        invoices: Type.Optional(Type.Array(Type.Object({ invoiceId: Uuid, amount: Type.Number() }))),
        bills: Type.Optional(Type.Array(Type.Object({ billId: Uuid, amount: Type.Number() }))),
        existing: Type.Optional(Type.Array(Type.Object({ journalEntryId: Uuid }))),
        create: Type.Optional(Type.Object({ accountId: Uuid })),
      },
      { description: 'What to send in POST /api/reconciliation/matches (with bankTransactionId)' },
    ),
  }),
);

export const LineSuggestions = named(
  'BankLineSuggestions',
  Type.Object({
    bankTransactionId: Uuid,
    date: Type.String({ format: 'date' }),
    amount: Type.Number(),
    description: Type.String(),
    reference: nullable(Type.String()),
    suggestions: Type.Array(Suggestion),
  }),
);

const BankAccountId = uuid({ examples: ['00000000-0000-4000-8000-000000000003'] });

export const SuggestionsQuery = Type.Object({ bankAccountId: BankAccountId, ...pageQueryProperties }, closed);

export const AutoBody = Type.Object(
  { bankAccountId: Uuid },
  { ...closed, examples: [{ bankAccountId: '00000000-0000-4000-8000-000000000003' }] },
);
export const AutoResult = named(
  'BankAutoReconcileResult',
  Type.Object({
    considered: Type.Integer({
      description:
        'Unreconciled lines looked at: those whose amount is due on an open invoice or bill (no other can be certain)',
    }),
    reconciled: Type.Integer(),
    matchIds: Type.Array(Uuid),
  }),
);

export const ReportQuery = Type.Object(
  {
    bankAccountId: BankAccountId,
    asOf: Type.Optional(Type.String({ format: 'date', description: 'Default today' })),
  },
  closed,
);

const ReportLine = Type.Object({
  date: Type.String({ format: 'date' }),
  amount: Type.Number(),
  description: Type.String(),
  bankTransactionId: nullable(Uuid),
  journalEntryId: nullable(Uuid),
});

export const Report = named(
  'BankReconciliationReport',
  Type.Object({
    bankAccountId: Uuid,
    asOf: Type.String({ format: 'date' }),
    statementBalance: Type.Number({
      description: 'The last bank line’s running balance on or before asOf, else opening + lines',
    }),
    statementLinesBalance: Type.Number({ description: 'Opening balance + the bank lines to asOf' }),
    ledgerBalance: Type.Number({ description: 'The ledger account’s balance at asOf' }),
    unreconciledTotal: Type.Number(),
    unmatchedLedgerTotal: Type.Number(),
    difference: Type.Number({
      description:
        'statementLinesBalance - unreconciledTotal + unmatchedLedgerTotal - ledgerBalance: 0 when it ties out',
    }),
    unreconciled: Type.Array(ReportLine, { description: 'Bank lines to asOf not matched (as of asOf)' }),
    unmatchedLedger: Type.Array(ReportLine, {
      description: 'Ledger movements of the account to asOf not matched to a bank line to asOf',
    }),
  }),
);
