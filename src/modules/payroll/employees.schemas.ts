// TypeBox schemas of employees: every column of the employees table in camelCase, the bank
// account as one object (the number goes in whole and comes back masked, ••••1234), pay as
// JSON numbers to the cent (stored NUMERIC).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { BANK_ACCOUNT_TYPES, PAY_BASES, PAY_FREQUENCIES } from './payroll.tables.ts';

const Timestamp = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });

export const EMPLOYEE_STATUSES = ['active', 'terminated'] as const;

export const PayFrequency = named(
  'PayFrequency',
  stringEnum(PAY_FREQUENCIES, { description: 'How often the employee is paid' }),
);
export const PayBasis = named(
  'PayBasis',
  stringEnum(PAY_BASES, {
    description: 'salary: rate is the pay for a full period; hourly: rate is the pay for an hour',
  }),
);
export const EmployeeBankAccountType = named(
  'EmployeeBankAccountType',
  stringEnum(BANK_ACCOUNT_TYPES, { description: 'cheque (current), savings or transmission' }),
);
const EmployeeStatus = stringEnum(EMPLOYEE_STATUSES, {
  description: 'terminated: endDate is before today; active otherwise (a future start included)',
});

const Money = (description: string) =>
  Type.Number({ minimum: 0, maximum: 999_999_999_999, description: `${description}; up to two decimals` });

// The properties are optional here and required by the service (employees.rules.ts): the
// account is nullable, and a validator's error inside a nullable object names only
// `bankAccount`, where the service's names the property (bankAccount.branchCode).
const BankAccountInput = Type.Object(
  {
    bankName: Type.Optional(Type.String({ maxLength: 100, description: 'Required' })),
    branchCode: Type.Optional(
      Type.String({ maxLength: 6, description: 'Required: six digits (universal or branch code)' }),
    ),
    accountType: Type.Optional(EmployeeBankAccountType),
    accountHolder: Type.Optional(
      Type.String({ maxLength: 100, description: 'Required: the name the bank shows' }),
    ),
    accountNumber: Type.Optional(
      Type.String({
        maxLength: 16,
        description: 'Required: digits only (5 to 16); kept sealed with SECRETS_KEY, answered masked',
      }),
    ),
  },
  { additionalProperties: false, description: 'Where pay goes; accountType defaults to cheque' },
);

const BankAccount = named(
  'EmployeeBankAccount',
  Type.Object({
    bankName: nullable(Type.String()),
    branchCode: nullable(Type.String()),
    accountType: nullable(EmployeeBankAccountType),
    accountHolder: nullable(Type.String()),
    accountNumberMasked: Type.String({ description: 'The last four digits only: ••••1234' }),
  }),
);

export const Employee = named(
  'Employee',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    companyId: Uuid,
    contactId: Uuid,
    employeeNumber: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    idNumber: nullable(Type.String(), { description: 'South African ID number (13 digits)' }),
    passportNumber: nullable(Type.String()),
    passportCountry: nullable(Type.String(), { description: 'ISO 3166 alpha-2 of the issuing country' }),
    dateOfBirth: Day,
    taxNumber: nullable(Type.String(), { description: 'SARS income tax number (10 digits)' }),
    jobTitle: nullable(Type.String(), { description: 'Occupation, printed on the payslip' }),
    startDate: Day,
    endDate: nullable(Day),
    terminationReason: nullable(Type.String()),
    status: EmployeeStatus,
    payFrequency: PayFrequency,
    payBasis: PayBasis,
    rate: Type.Number({ description: 'Rand a period (salary) or an hour (hourly)' }),
    hoursPerWeek: Type.Number(),
    daysPerWeek: Type.Number(),
    bankAccount: nullable(BankAccount, { description: 'null: no bank account given (paid otherwise)' }),
    medicalScheme: Type.Boolean(),
    medicalDependants: Type.Integer(),
    medicalEmployeeContribution: Type.Number({ description: 'A month, deducted from pay' }),
    medicalEmployerContribution: Type.Number({
      description: 'A month, paid by the employer (a fringe benefit)',
    }),
    retirementEmployeeContribution: Type.Number({ description: 'A period, deducted from pay' }),
    retirementEmployerContribution: Type.Number({ description: 'A period, paid by the employer' }),
    uifApplies: Type.Boolean(),
    sdlApplies: Type.Boolean(),
    etiEligible: Type.Boolean(),
    etiStartDate: nullable(Day, { description: "The day the ETI's 24 months count from; null: startDate" }),
    minimumWageExempt: Type.Boolean({
      description:
        'The National Minimum Wage does not bind this wage (an exemption under NMW Act s15, or a worker outside it)',
    }),
    minimumHourlyWage: nullable(Type.Number(), {
      description: "A wage-regulating measure's minimum an hour binding this employee; null: none",
    }),
    clientId: nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp, {
      description:
        'Set on a deleted employee: only a list read with updatedSince shows one (GET answers 404)',
    }),
  }),
);

const ShortText = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });
const NullableText = (max: number, description: string) =>
  orNull<string>({ type: 'string', minLength: 1, maxLength: max, description });

/** Fields a create and a change take alike (a change: only those sent; null clears). */
const fields = {
  employeeNumber: ShortText(32, "The business's own number; default the next free E0001, E0002, ..."),
  firstName: ShortText(100),
  lastName: ShortText(100),
  idNumber: NullableText(
    13,
    'South African ID number: 13 digits, its check digit and date of birth must hold',
  ),
  passportNumber: NullableText(30, 'For someone without a South African ID number, with passportCountry'),
  passportCountry: orNull<string>({
    type: 'string',
    pattern: '^[A-Z]{2}$',
    description: 'ISO 3166 alpha-2, capitals',
  }),
  dateOfBirth: Type.String({
    format: 'date',
    description:
      'With an idNumber: derived from it when left out; when given, must agree with its YYMMDD and settles the century',
  }),
  taxNumber: NullableText(10, 'SARS income tax number: 10 digits, first 0, 1, 2, 3 or 9, modulus 10 check'),
  jobTitle: NullableText(100, 'Occupation, printed on the payslip (BCEA s33(1)(b))'),
  startDate: Day,
  endDate: orNull<string>({
    type: 'string',
    format: 'date',
    description: 'Last day employed; not before startDate',
  }),
  terminationReason: NullableText(500, 'Why employment ended'),
  payFrequency: PayFrequency,
  payBasis: PayBasis,
  rate: Money('Rand a period (salary) or an hour (hourly)'),
  hoursPerWeek: Type.Number({
    exclusiveMinimum: 0,
    maximum: 168,
    description:
      "The contract's ordinary hours a week (default 40; two decimals): a salary's hourly rate, and its " +
      'hours in a month (× 52 ÷ 12) for the ETI: fewer than 160 are grossed up to find the band and the ' +
      'incentive scaled down (ETI Act s7(5)), and the minimum wage is held to them',
  }),
  daysPerWeek: Type.Number({ exclusiveMinimum: 0, maximum: 7, description: 'Default 5; one decimal' }),
  bankAccount: nullable(BankAccountInput, {
    description:
      'Replaced whole when sent (the number again too); null removes it. Needs SECRETS_KEY (else 503)',
  }),
  medicalScheme: Type.Boolean({ description: 'Default false' }),
  medicalDependants: Type.Integer({
    minimum: 0,
    maximum: 50,
    description: 'Besides the employee; needs medicalScheme',
  }),
  medicalEmployeeContribution: Money('A month, deducted; needs medicalScheme'),
  medicalEmployerContribution: Money('A month, paid by the employer; needs medicalScheme'),
  retirementEmployeeContribution: Money('A period, deducted'),
  retirementEmployerContribution: Money('A period, paid by the employer'),
  uifApplies: Type.Boolean({ description: 'Default true' }),
  sdlApplies: Type.Boolean({ description: 'Default true' }),
  etiEligible: Type.Boolean({ description: 'Default false' }),
  etiStartDate: orNull<string>({ type: 'string', format: 'date', description: 'Not before startDate' }),
  minimumWageExempt: Type.Boolean({
    description:
      'Default false. true: the National Minimum Wage does not bind this wage (the employer holds an ' +
      'exemption under NMW Act s15, or the worker is outside the Act, s3); the ETI then holds the wage to ' +
      'its fixed R2 500 for 160 hours, pro rata (ETI Act s4(1)(b))',
  }),
  minimumHourlyWage: orNull<number>({
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 100_000,
    description:
      'The minimum an hour set by a wage-regulating measure binding this employee (a bargaining council ' +
      'agreement or sectoral determination, ETI Act s4(3)); the ETI holds the wage to the higher of it ' +
      'and the National Minimum Wage (s4(1)(a)). Two decimals; null: none',
  }),
};

const optional = <T extends Record<string, Parameters<typeof Type.Optional>[0]>>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

const EXAMPLE = {
  employeeNumber: 'E1001',
  firstName: 'Thandiwe',
  lastName: 'Mokoena',
  email: 'thandiwe.mokoena@example.co.za',
  idNumber: '8001015009087',
  taxNumber: '0001339050',
  jobTitle: 'Bookkeeper',
  startDate: '2026-03-01',
  payFrequency: 'monthly',
  payBasis: 'salary',
  rate: 32500,
  bankAccount: {
    bankName: 'First National Bank',
    branchCode: '250655',
    accountType: 'cheque',
    accountHolder: 'T Mokoena',
    accountNumber: '62001234567',
  },
  medicalScheme: true,
  medicalDependants: 2,
  medicalEmployeeContribution: 2400,
  medicalEmployerContribution: 1200,
  retirementEmployeeContribution: 2437.5,
  uifApplies: true,
  sdlApplies: true,
};

export const EmployeeCreate = named(
  'EmployeeCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      contactId: Type.Optional(
        uuid({
          description: 'An EMPLOYEE contact of the business; left out: one is made from the names and email',
        }),
      ),
      email: Type.Optional(
        Type.String({
          format: 'email',
          maxLength: 254,
          description: "The new contact's e-mail (only without contactId)",
        }),
      ),
      ...optional(fields),
      firstName: fields.firstName,
      lastName: fields.lastName,
      startDate: fields.startDate,
      payFrequency: fields.payFrequency,
      payBasis: fields.payBasis,
      rate: fields.rate,
    },
    { additionalProperties: false, examples: [EXAMPLE] },
  ),
);

export const EmployeeUpdate = named(
  'EmployeeUpdate',
  Type.Object(
    {
      contactId: Type.Optional(uuid({ description: 'Another EMPLOYEE contact' })),
      ...optional(fields),
    },
    { additionalProperties: false, examples: [{ rate: 34000, hoursPerWeek: 45, etiEligible: false }] },
  ),
);

export const EmployeeTerminate = named(
  'EmployeeTerminate',
  Type.Object(
    {
      endDate: Type.String({ format: 'date', description: 'The last day employed; not before startDate' }),
      reason: Type.String({ minLength: 1, maxLength: 500 }),
    },
    { additionalProperties: false, examples: [{ endDate: '2026-12-31', reason: 'Resigned' }] },
  ),
);

export const EmployeeListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['updatedAt', 'createdAt', 'number'], 'name'),
    status: Type.Optional(EmployeeStatus),
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'Contains, in any case, in the names or employeeNumber' }),
    ),
  },
  { additionalProperties: false },
);
