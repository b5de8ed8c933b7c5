import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { fileProperty } from '../../platform/http/multipart.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { STATEMENT_FORMATS } from './banking.tables.ts';
import { CSV_PROFILES } from './statements/csv-profiles.ts';

const Day = Type.String({ format: 'date' });
const Amount = Type.String({ description: 'A decimal string, two places' });

/** Uploaded with a statement file: the fields of the multipart body. */
export const BankStatementUpload = named(
  'BankStatementUpload',
  Type.Object(
    {
      file: fileProperty('The statement: OFX/QFX (1.x or 2.x), CAMT.053 XML or a bank CSV; at most 20 MiB'),
      bankAccountId: uuid({ description: 'The bank account the statement is of' }),
      preview: Type.Optional(
        stringEnum(['true', 'false'] as const, {
          description: 'true: answer what the import would do, writing nothing (default false)',
        }),
      ),
      format: Type.Optional(stringEnum(STATEMENT_FORMATS, { description: 'Default: told from the bytes' })),
      profile: Type.Optional(
        stringEnum(CSV_PROFILES, {
          description: "A CSV's bank profile; default the bank account's bank (else told from the header)",
        }),
      ),
      mappingId: Type.Optional(uuid({ description: 'A saved CSV mapping, instead of a profile' })),
    },
    {
      additionalProperties: false,
      examples: [
        {
          file: 'Date,Amount,Balance,Description\n2026/03/02,-50.00,14950.00,POS PURCHASE VIDA E CAFFE\n',
          bankAccountId: '00000000-0000-4000-8000-000000000000',
          profile: 'fnb',
        },
      ],
    },
  ),
);

const RowError = Type.Object({
  line: Type.Integer({ description: 'The row (CSV) or entry (OFX, CAMT) in the file, 1-based' }),
  field: Type.Optional(Type.String()),
  message: Type.String(),
});

const RunningGap = Type.Object({
  line: nullable(Type.Integer()),
  date: Day,
  expected: Amount,
  found: Amount,
  difference: Type.String({ description: 'found - expected' }),
});

export const BalanceCheck = named(
  'StatementBalanceCheck',
  Type.Object({
    status: stringEnum(['ok', 'gap', 'not_given'] as const),
    openingBalance: nullable(Amount),
    closingBalance: nullable(Amount),
    derived: nullable(
      stringEnum(['opening', 'closing'] as const, {
        description:
          'The balance the file did not give, worked out from the other and the lines (an OFX gives only its ' +
          'closing balance): opening + lines = closing then holds by construction, and only the running balances ' +
          'are checked',
      }),
    ),
    linesTotal: Amount,
    gap: nullable(Type.String({ description: 'closing - (opening + lines), when both are given' })),
    runningGaps: Type.Array(RunningGap, {
      description: "Rows whose running balance does not follow the row before's",
    }),
  }),
);

const Duplicate = Type.Object({
  line: nullable(Type.Integer()),
  date: Day,
  amount: Amount,
  description: Type.String(),
  reason: Type.String(),
  duplicateOfId: uuid({ description: 'The bank transaction already held' }),
});

const Identical = Type.Object({
  line: nullable(Type.Integer()),
  date: Day,
  amount: Amount,
  note: Type.String({ description: 'Why an identical row of the same day is kept, not merged' }),
});

export const STATEMENT_OUTCOMES = ['imported', 'other_account', 'repeated'] as const;

export const StatementInFile = named(
  'BankStatementInFile',
  Type.Object({
    index: Type.Integer({ description: 'The statement in the file, 1-based' }),
    reference: nullable(Type.String({ description: "The statement's own id in the file (CAMT Stmt/Id)" })),
    accountHint: nullable(Type.String({ description: 'The account it names' })),
    currency: nullable(Type.String()),
    periodFrom: nullable(Day),
    periodTo: nullable(Day),
    outcome: stringEnum(STATEMENT_OUTCOMES, {
      description:
        "imported: its lines are this account's (new ones written, the others already held); other_account: of " +
        'another account, not imported; repeated: the same statement again in the file, imported once',
    }),
    reason: nullable(Type.String({ description: 'Why it was not imported' })),
    rowsRead: Type.Integer(),
    rowsNew: Type.Integer(),
    rowsDuplicate: Type.Integer(),
    rowsError: Type.Integer(),
    balance: BalanceCheck,
    notes: Type.Array(Type.String(), {
      description: 'What the reader did that matters (a batch kept as one line, and why)',
    }),
  }),
);

export const BankStatement = named(
  'BankStatement',
  Type.Object({
    id: nullable(
      uuid({
        description:
          'The statement written; in a 200 that adds nothing, the statement the same file was imported as, or null',
      }),
    ),
    companyId: Uuid,
    bankAccountId: Uuid,
    preview: Type.Boolean(),
    format: stringEnum(STATEMENT_FORMATS),
    profile: nullable(Type.String({ description: "The CSV's bank profile, or mapping:<id>" })),
    layout: nullable(
      Type.String({ description: "The layout of the bank's export that read the CSV, in words" }),
    ),
    fileName: nullable(Type.String()),
    fileSha256: Type.String(),
    fileSize: Type.Integer(),
    alreadyImported: nullable(
      Type.Object({
        statementId: Uuid,
        importedAt: Type.String({ format: 'date-time' }),
        message: Type.String(),
      }),
    ),
    periodFrom: nullable(Day),
    periodTo: nullable(Day),
    currency: nullable(Type.String()),
    accountHint: nullable(Type.String({ description: 'The account the file names' })),
    rowsRead: Type.Integer({ description: 'Lines read plus rows with errors' }),
    rowsNew: Type.Integer(),
    rowsDuplicate: Type.Integer(),
    rowsIdentical: Type.Integer({
      description: 'New rows identical (date and amount) to an earlier one of the file: kept, not merged',
    }),
    rowsError: Type.Integer({ description: 'Rows not written (the first 100 are in errors)' }),
    balance: BalanceCheck,
    statements: Type.Array(StatementInFile, {
      description: 'Every statement in the file and what became of it (a CSV is one)',
    }),
    duplicates: Type.Array(Duplicate, {
      description: 'The first 100 rows already held; rowsDuplicate counts them all',
    }),
    identical: Type.Array(Identical, {
      description: 'The first 100 identical rows kept; rowsIdentical counts them all',
    }),
    errors: Type.Array(RowError, { description: 'The first 100 rows not read; rowsError counts them all' }),
    warnings: Type.Array(Type.String()),
    message: Type.String({ description: 'What was (or would be) done, in words' }),
    createdAt: nullable(Type.String({ format: 'date-time' })),
  }),
);

export const BankStatementsQuery = Type.Object(
  { ...pageQueryProperties, bankAccountId: Type.Optional(Uuid) },
  { additionalProperties: false },
);
