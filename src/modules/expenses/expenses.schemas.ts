// TypeBox schemas of expense claims, their approval policy and limits, and mileage trips.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { BILL_TAX_CODES } from '../bills/index.ts';
import { CLAIM_STATUSES, PAID_WITH } from './expenses.tables.ts';

const DateString = Type.String({ format: 'date' });
const Timestamp = Type.String({ format: 'date-time' });

export const ClaimStatus = named(
  'ExpenseStatus',
  stringEnum(CLAIM_STATUSES, {
    description:
      'submitted (on create) → partially_approved (one approval of the two a claim at or above the ' +
      'policy’s secondApprovalFrom needs) → approved (posted) → reimbursed (a personal claim paid out); ' +
      'rejected (with a reason; nothing posted).',
  }),
);

export const PaidWith = named(
  'ExpensePaidWith',
  stringEnum(PAID_WITH, {
    description:
      'personal: the employee paid and is owed (Cr Employee reimbursements payable 2150); company_card: the ' +
      'company card paid (Cr Credit card 2410)',
  }),
);

export const ExpenseTaxCode = named(
  'ExpenseTaxCode',
  stringEnum(BILL_TAX_CODES, {
    description:
      'How the supplier taxed it, as on a bill: standard (15%, input tax in VAT201 field 15), standard_capital ' +
      '(field 14), zero, exempt, out_of_scope (no VAT). Default standard.',
  }),
);

export const Approval = named(
  'ExpenseApprovalEntry',
  Type.Object({
    userId: nullable(Uuid),
    keyId: nullable(Uuid, { description: 'A business API key that approved (no user)' }),
    name: Type.String(),
    roleId: Type.String({ description: "The approver's role: a built-in role's name or a custom role's id" }),
    approvedAt: Timestamp,
  }),
);

export const ExpenseCreate = named(
  'ExpenseCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      date: DateString,
      description: Type.String({ minLength: 1, maxLength: 1000 }),
      amount: Type.Number({ exclusiveMinimum: 0, description: 'What was paid, VAT included' }),
      vatAmount: Type.Optional(
        Type.Number({
          minimum: 0,
          description:
            'The VAT on the slip; default the tax fraction of amount (rate/(100+rate), 15/115 at 15%, half-up to ' +
            'the cent; VAT Act s1 and s7). Never more than that fraction (400 vatAmount)',
        }),
      ),
      taxCode: Type.Optional(ExpenseTaxCode),
      accountId: Type.Optional(
        uuid({
          description: 'The expense or asset account it posts to; default General expenses (6750)',
        }),
      ),
      vendor: Type.Optional(Type.String({ maxLength: 200, description: 'Who was paid' })),
      supplierVatNumber: Type.Optional(Type.String({ maxLength: 20 })),
      category: Type.Optional(Type.String({ maxLength: 100 })),
      costCentreId: Type.Optional(nullable(Uuid)),
      contactId: Type.Optional(nullable(uuid({ description: 'The EMPLOYEE contact claiming' }))),
      paidWith: PaidWith,
      currency: Type.Optional(Type.String({ pattern: '^ZAR$', description: 'ZAR (the only one for now)' })),
    },
    {
      additionalProperties: false,
      examples: [
        {
          date: '2026-03-05',
          description: 'Client lunch',
          amount: 575,
          vendor: 'Harbour Grill',
          paidWith: 'personal',
        },
      ],
    },
  ),
);

export const ExpenseUpdate = named(
  'ExpenseUpdate',
  Type.Object(
    {
      description: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
      vendor: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
      category: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
      costCentreId: Type.Optional(nullable(Uuid)),
    },
    { additionalProperties: false, examples: [{ category: 'Meals' }] },
  ),
);

export const Receipt = named(
  'ExpenseReceipt',
  Type.Object({
    contentType: Type.String(),
    sizeBytes: Type.Integer(),
    uploadedAt: Timestamp,
    url: Type.String({ description: 'GET it here' }),
  }),
);

export const Expense = named(
  'Expense',
  Type.Object({
    id: Uuid,
    tenantId: Uuid,
    companyId: Uuid,
    contactId: nullable(Uuid),
    accountId: Uuid,
    costCentreId: nullable(Uuid),
    description: Type.String(),
    vendor: nullable(Type.String()),
    supplierVatNumber: nullable(Type.String()),
    category: nullable(Type.String()),
    currency: Type.String(),
    status: ClaimStatus,
    date: DateString,
    amount: Type.Number({ description: 'VAT included' }),
    vatAmount: Type.Number(),
    vatRate: Type.Number(),
    vatClaimable: Type.Boolean({
      description:
        'Input tax is claimed: the company is VAT-registered on the date and the supply is taxed (with a full tax ' +
        'invoice above R5,000)',
    }),
    vatWarning: nullable(Type.String()),
    paidWith: PaidWith,
    taxCode: ExpenseTaxCode,
    approvals: Type.Array(Approval),
    approvalsNeeded: Type.Integer({ description: 'How many approvals the claim needs under the policy' }),
    rejectionReason: nullable(Type.String()),
    entryId: nullable(Uuid),
    reimbursementEntryId: nullable(Uuid),
    reimbursedAt: nullable(Timestamp),
    receipt: nullable(Receipt),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp),
  }),
);

export const EXPENSE_SORT_KEYS = ['date', 'createdAt', 'updatedAt'] as const;
export const EXPENSE_DEFAULT_SORT = '-date';

export const ExpenseListQuery = Type.Object({
  ...pageQueryProperties,
  ...syncQueryProperties(EXPENSE_SORT_KEYS, EXPENSE_DEFAULT_SORT),
  status: Type.Optional(ClaimStatus),
  contactId: Type.Optional(Uuid),
  from: Type.Optional(Type.String({ format: 'date', description: 'Dated on or after' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Dated on or before' })),
});

export const ExpenseReject = named(
  'ExpenseReject',
  Type.Object(
    { reason: Type.String({ minLength: 1, maxLength: 1000 }) },
    { additionalProperties: false, examples: [{ reason: 'No slip attached' }] },
  ),
);

export const ExpenseReimburse = named(
  'ExpenseReimburse',
  Type.Object(
    {
      date: Type.String({ format: 'date', description: 'The day it was paid out; not before the claim' }),
      bankAccountId: Type.Optional(uuid({ description: 'A bank account of the chart; default Bank (1000)' })),
    },
    { additionalProperties: false, examples: [{ date: '2026-03-25' }] },
  ),
);

export const LedgerNotice = named(
  'ExpenseLedgerNotice',
  Type.Object({ ledgerNotice: Type.String({ description: 'What the ledger did' }) }),
);

/** The data of expense.rejected. */
export const ExpenseRejected = named(
  'ExpenseRejected',
  Type.Object({
    expenseId: Uuid,
    date: DateString,
    description: Type.String(),
    amount: Type.Number(),
    contactId: nullable(Uuid),
    reason: Type.String(),
    rejectedAt: Timestamp,
  }),
);

export const ApprovalLimits = named(
  'ExpenseApprovalLimits',
  Type.Object({
    limits: Type.Array(
      Type.Object({ id: Uuid, roleId: Type.String(), roleName: Type.String(), maxAmount: Type.Number() }),
    ),
    mayChange: Type.Boolean({ description: 'The caller may change them (admin:manage)' }),
  }),
);

export const ApprovalLimitsUpdate = named(
  'ExpenseApprovalLimitsUpdate',
  Type.Object(
    {
      limits: Type.Array(
        Type.Object(
          {
            roleId: Type.String({
              minLength: 1,
              maxLength: 100,
              description: "A built-in role's name (e.g. accountant) or a custom role's id",
            }),
            // numeric(18,2); the service's money ceiling (issue 35: beyond the column was unnamed).
            maxAmount: Type.Number({
              minimum: 0,
              maximum: 999_999_999_999.99,
              description: 'The largest claim (VAT included) it approves',
            }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    },
    { additionalProperties: false, examples: [{ limits: [{ roleId: 'accountant', maxAmount: 10000 }] }] },
  ),
);

export const ApprovalPolicy = named(
  'ExpenseApprovalPolicy',
  Type.Object({
    secondApprovalFrom: Type.Number({
      description: 'A claim of this amount or more needs a second, different approver (when approvers is 2)',
    }),
    approvers: Type.Integer({ minimum: 1, maximum: 2 }),
    mayChange: Type.Boolean({ description: 'The caller may change it (admin:manage)' }),
    summary: Type.String({ description: 'The policy in words' }),
  }),
);

export const ApprovalPolicyUpdate = named(
  'ExpenseApprovalPolicyUpdate',
  Type.Object(
    {
      secondApprovalFrom: Type.Optional(Type.Number({ minimum: 0, maximum: 999_999_999_999.99 })),
      approvers: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 2,
          description: '1: one approval for any claim; 2: two from secondApprovalFrom',
        }),
      ),
    },
    { additionalProperties: false, examples: [{ secondApprovalFrom: 5000, approvers: 2 }] },
  ),
);
