import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { DECIMAL_SEPARATORS, SIGN_CONVENTIONS } from './statements/csv-profiles.ts';
import { DATE_FORMATS } from './statements/types.ts';

const column = (description = 'A column: by its header name or its 0-based index') =>
  Type.Union(
    [
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "The column's header (case and spaces ignored)",
      }),
      Type.Integer({
        minimum: 0,
        maximum: 200,
        description: 'The column by index, 0-based (a file without a header)',
      }),
    ],
    { description },
  );
const Column = column();

const Columns = Type.Object(
  {
    date: Column,
    valueDate: Type.Optional(Column),
    description: Type.Union([Column, Type.Array(Column, { minItems: 1, maxItems: 5 })], {
      description: 'One column, or several joined with a space',
    }),
    reference: Type.Optional(Column),
    payee: Type.Optional(Column),
    amount: Type.Optional(column('The signed amount (sign: signed)')),
    debit: Type.Optional(column('Money out (sign: debit_credit)')),
    credit: Type.Optional(column('Money in (sign: debit_credit)')),
    fee: Type.Optional(column('A fee or charge, money out (sign: debit_credit)')),
    balance: Type.Optional(column('The running balance, checked row by row')),
  },
  { additionalProperties: false },
);

const mappingProperties = {
  columns: Columns,
  dateFormat: stringEnum(DATE_FORMATS),
  sign: stringEnum(SIGN_CONVENTIONS, {
    description: 'signed: one amount column, negative out; debit_credit: out and in (and fee) columns',
  }),
  skipRows: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100, description: 'Rows before the header (default 0)' }),
  ),
  header: Type.Optional(
    Type.Boolean({ description: 'Whether a header row names the columns (default true)' }),
  ),
  decimalSeparator: Type.Optional(
    stringEnum(DECIMAL_SEPARATORS, {
      description:
        "auto (the default): decided from every amount and balance in the file ('1.234,56' and '50,00' say comma, " +
        "'1,234.56' and '50.00' point; a file that could be either is refused, asking for '.' or ','); '.' or ',': " +
        'always that (a cell that does not fit is an error on its row)',
    }),
  ),
  delimiter: Type.Optional(
    stringEnum([',', ';', '\t'] as const, { description: 'Default: told from the file' }),
  ),
};

export const BankCsvMapping = named(
  'BankCsvMapping',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    name: Type.String(),
    ...mappingProperties,
    skipRows: Type.Integer(),
    header: Type.Boolean(),
    decimalSeparator: stringEnum(DECIMAL_SEPARATORS),
    delimiter: Type.Union([stringEnum([',', ';', '\t'] as const), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

export const BankCsvMappingCreate = named(
  'BankCsvMappingCreate',
  Type.Object(
    { clientId: clientIdProperty, name: Type.String({ minLength: 1, maxLength: 100 }), ...mappingProperties },
    {
      additionalProperties: false,
      examples: [
        {
          name: 'Credit union export',
          columns: {
            date: 'Txn Date',
            description: ['Narrative', 'Ref'],
            debit: 'Out',
            credit: 'In',
            balance: 'Bal',
          },
          dateFormat: 'DD/MM/YYYY',
          sign: 'debit_credit',
          skipRows: 2,
        },
      ],
    },
  ),
);

export const BankCsvMappingUpdate = named(
  'BankCsvMappingUpdate',
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      columns: Type.Optional(Columns),
      dateFormat: Type.Optional(mappingProperties.dateFormat),
      sign: Type.Optional(mappingProperties.sign),
      skipRows: mappingProperties.skipRows,
      header: mappingProperties.header,
      decimalSeparator: mappingProperties.decimalSeparator,
      delimiter: mappingProperties.delimiter,
    },
    { additionalProperties: false },
  ),
);
