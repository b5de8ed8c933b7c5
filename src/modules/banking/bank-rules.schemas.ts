// Schemas of the bank rules and of a bank line's coding (what a rule's actions set, and what a
// person sets on a line: the same shape, so a rule is "code it the way I would").
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { TaxCodeSchema } from '../ledger/index.ts';
import { RULE_MATCHES } from './bank-rules.tables.ts';

const MoneyString = Type.String({ pattern: '^[0-9]+(\\.[0-9]{1,2})?$', description: 'e.g. 1250.50' });
const Amount = Type.Union([Type.Number({ minimum: 0 }), MoneyString], {
  description: 'An amount (the size of the line, never negative), at most two decimals',
});
const Percent = Type.Union(
  [
    Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
    Type.String({ pattern: '^[0-9]{1,3}(\\.[0-9]{1,4})?$' }),
  ],
  {
    description:
      'A share of the line in percent, above 0, at most four decimals; the splits sum to exactly 100',
  },
);

export const CONDITION_FIELDS = ['description', 'reference', 'payee', 'amount', 'direction'] as const;
export const CONDITION_OPERATORS = ['contains', 'equals', 'wildcard', 'between', 'gt', 'lt'] as const;
export const DIRECTIONS = ['in', 'out'] as const;

export const BankRuleCondition = named(
  'BankRuleCondition',
  Type.Object(
    {
      field: stringEnum(CONDITION_FIELDS, {
        description:
          'What of the bank line is tested: its text fields, its amount (the size), or its direction',
      }),
      operator: stringEnum(CONDITION_OPERATORS, {
        description:
          'Text fields: contains, equals, or wildcard (the whole field against a pattern: * any run of ' +
          'characters, ? one character; no regular expressions), all case-insensitive. amount (the size of ' +
          'the line, whatever its direction): equals, between (min and max, both included), gt, lt. ' +
          "direction: equals, value 'in' (money received) or 'out' (money paid).",
      }),
      value: Type.Optional(
        Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Number({ minimum: 0 })], {
          description: 'The text, pattern, amount or direction; not with between',
        }),
      ),
      min: Type.Optional(Amount),
      max: Type.Optional(Amount),
    },
    { additionalProperties: false },
  ),
);

export const CodingSplit = named(
  'BankCodingSplit',
  Type.Object(
    {
      accountId: Uuid,
      taxCode: TaxCodeSchema,
      percent: Percent,
      description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
      costCentreId: Type.Optional(nullable(Uuid)),
    },
    { additionalProperties: false },
  ),
);

const codingProperties = {
  accountId: Type.Optional(
    nullable(Uuid, { description: 'An active account of the company, not a control account' }),
  ),
  contactId: Type.Optional(nullable(Uuid, { description: 'A live contact' })),
  // A union, not nullable(): the enum must admit null too.
  taxCode: Type.Optional(Type.Union([TaxCodeSchema, Type.Null()])),
  description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
  costCentreId: Type.Optional(nullable(Uuid, { description: 'An active cost centre of the company' })),
  splits: Type.Optional(
    nullable(Type.Array(CodingSplit, { minItems: 2, maxItems: 20 }), {
      description:
        'Instead of accountId, taxCode and costCentreId: the line split over accounts by percentages summing to ' +
        'exactly 100',
    }),
  ),
};

/** What a rule sets on the lines it matches (a bank line's coding, in part). */
export const BankRuleActions = named(
  'BankRuleActions',
  Type.Object(codingProperties, {
    additionalProperties: false,
    description: 'At least one action; splits exclude accountId, taxCode and costCentreId',
  }),
);

/** A person's coding of one bank line: null clears a field; every field null clears the coding. */
export const BankTransactionCoding = named(
  'BankTransactionCoding',
  Type.Object(codingProperties, { additionalProperties: false }),
);

const ruleProperties = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  priority: Type.Integer({
    minimum: 0,
    maximum: 1000000,
    description: 'Lower runs first; ties by creation. Default: after the last rule (its priority + 10)',
  }),
  match: stringEnum(RULE_MATCHES, { description: 'all conditions must hold, or any one of them' }),
  conditions: Type.Array(BankRuleCondition, { minItems: 1, maxItems: 20 }),
  actions: BankRuleActions,
  stopProcessing: Type.Boolean({
    description:
      'true (the default): no later rule touches a line this one matched. false: later matching rules fill ' +
      'what this one left unset',
  }),
  bankAccountId: nullable(Uuid, { description: 'Only lines of this bank account; null: every bank account' }),
  isActive: Type.Boolean(),
};

export const BankRule = named(
  'BankRule',
  Type.Object({
    id: Uuid,
    companyId: Uuid,
    ...ruleProperties,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

const p = ruleProperties;
export const BankRuleCreate = named(
  'BankRuleCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      name: p.name,
      priority: Type.Optional(p.priority),
      match: Type.Optional(p.match),
      conditions: p.conditions,
      actions: p.actions,
      stopProcessing: Type.Optional(p.stopProcessing),
      bankAccountId: Type.Optional(p.bankAccountId),
      isActive: Type.Optional(p.isActive),
    },
    {
      additionalProperties: false,
      examples: [
        {
          name: 'Uber rides',
          match: 'all',
          conditions: [
            { field: 'description', operator: 'wildcard', value: '*UBER*' },
            { field: 'direction', operator: 'equals', value: 'out' },
          ],
          actions: { description: 'Uber trip', taxCode: 'input_standard' },
        },
      ],
    },
  ),
);

export const BankRuleUpdate = named(
  'BankRuleUpdate',
  Type.Object(
    {
      name: Type.Optional(p.name),
      priority: Type.Optional(p.priority),
      match: Type.Optional(p.match),
      conditions: Type.Optional(p.conditions),
      actions: Type.Optional(p.actions),
      stopProcessing: Type.Optional(p.stopProcessing),
      bankAccountId: Type.Optional(p.bankAccountId),
      isActive: Type.Optional(p.isActive),
    },
    { additionalProperties: false },
  ),
);

export const BankRulesQuery = Type.Object(
  {
    bankAccountId: Type.Optional(
      uuid({ description: "That account's rules and the rules of every account" }),
    ),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const BankRuleRun = named(
  'BankRuleRun',
  Type.Object(
    {
      bankAccountId: Type.Optional(Uuid),
      from: Type.Optional(Type.String({ format: 'date' })),
      to: Type.Optional(Type.String({ format: 'date' })),
      ruleIds: Type.Optional(
        Type.Array(Uuid, {
          minItems: 1,
          maxItems: 100,
          description:
            'Only these rules run, over the lines no other rule coded; default every active rule over every ' +
            'unreconciled line not coded by a person',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const BankRuleRunResult = named(
  'BankRuleRunResult',
  Type.Object({
    examined: Type.Integer({
      description: "Unreconciled lines looked at (a person's coding is not looked at)",
    }),
    coded: Type.Integer({ description: 'Lines whose coding a rule set or changed' }),
    cleared: Type.Integer({
      description: 'Lines a rule had coded that no rule matches now: their coding is cleared',
    }),
    unchanged: Type.Integer({
      description: 'Lines left as they were (coded the same, or matched by no rule)',
    }),
  }),
);
