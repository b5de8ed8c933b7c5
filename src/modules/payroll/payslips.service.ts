// Payslips: the current (not replaced) payslip of each employee of each calculated period, paged,
// and one with its lines. Only people with payroll:read reach them.

import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { notFound } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { EtiStop } from './calc/eti.ts';
import type { Payslip, PayslipListQuery, PayslipSummary } from './pay-runs.schemas.ts';
import { warningsOf } from './payslip-warnings.ts';

type Ctx = TenantCtx;

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('payslips as s')
    .innerJoin('payroll_periods as p', (j) =>
      j.onRef('p.tenant_id', '=', 's.tenant_id').onRef('p.id', '=', 's.period_id'),
    )
    .innerJoin('employees as e', (j) =>
      j.onRef('e.tenant_id', '=', 's.tenant_id').onRef('e.id', '=', 's.employee_id'),
    )
    .where('s.tenant_id', '=', ctx.tenantId)
    .where('s.company_id', '=', companyOf(ctx))
    .where('s.replaced_at', 'is', null);
}

const COLUMNS = [
  's.id',
  's.period_id',
  's.employee_id',
  'e.employee_number',
  'e.first_name',
  'e.last_name',
  'p.period_start',
  'p.period_end',
  'p.pay_date',
  'p.status',
  's.tax_year',
  's.period_fraction',
  's.days_worked',
  's.unpaid_days',
  's.gross',
  's.taxable',
  's.paye',
  's.uif_employee',
  's.uif_employer',
  's.sdl',
  's.eti',
  's.retirement_employee',
  's.retirement_employer',
  's.medical_employee',
  's.medical_employer',
  's.other_deductions',
  's.net',
  's.eti_reason',
  's.warnings',
  's.created_at',
  's.updated_at',
] as const;

type Row = {
  id: string;
  period_id: string;
  employee_id: string;
  employee_number: string;
  first_name: string;
  last_name: string;
  period_start: string;
  period_end: string;
  pay_date: string;
  status: Static<typeof PayslipSummary>['status'];
  tax_year: string;
  period_fraction: string;
  days_worked: number;
  unpaid_days: string;
  eti_reason: EtiStop | null;
  warnings: unknown;
  created_at: Date;
  updated_at: Date;
} & Record<(typeof MONEY)[number][0], string>;

const MONEY = [
  ['gross', 'gross'],
  ['taxable', 'taxable'],
  ['paye', 'paye'],
  ['uif_employee', 'uifEmployee'],
  ['uif_employer', 'uifEmployer'],
  ['sdl', 'sdl'],
  ['eti', 'eti'],
  ['retirement_employee', 'retirementEmployee'],
  ['retirement_employer', 'retirementEmployer'],
  ['medical_employee', 'medicalEmployee'],
  ['medical_employer', 'medicalEmployer'],
  ['other_deductions', 'otherDeductions'],
  ['net', 'net'],
] as const;

function toSummary(r: Row): Static<typeof PayslipSummary> {
  const amounts = Object.fromEntries(MONEY.map(([c, k]) => [k, toNumber(r[c])])) as Record<
    (typeof MONEY)[number][1],
    number
  >;
  return {
    id: r.id,
    periodId: r.period_id,
    employeeId: r.employee_id,
    employeeNumber: r.employee_number,
    employeeName: `${r.first_name} ${r.last_name}`,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    payDate: r.pay_date,
    status: r.status,
    taxYear: r.tax_year,
    periodFraction: Number(r.period_fraction),
    daysWorked: r.days_worked,
    unpaidDays: Number(r.unpaid_days),
    ...amounts,
    etiReason: r.eti_reason,
    warnings: warningsOf(r.warnings),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export async function listPayslips(
  ctx: Ctx,
  query: Static<typeof PayslipListQuery>,
): Promise<Page<Static<typeof PayslipSummary>>> {
  const p = paging(query);
  let q = base(ctx);
  if (query.periodId) q = q.where('s.period_id', '=', query.periodId);
  if (query.employeeId) q = q.where('s.employee_id', '=', query.employeeId);
  // A join: pageOfQuery's selectAll and bare `id` would be ambiguous, so the count and the page
  // are two queries here (latest period first, then by employee number, the id breaking ties).
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .select(COLUMNS)
    .orderBy('p.period_start', 'desc')
    .orderBy('e.employee_number')
    .orderBy('s.id')
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  return pageOf((rows as unknown as Row[]).map(toSummary), Number(n), p);
}

export async function readPayslip(ctx: Ctx, id: string): Promise<Static<typeof Payslip>> {
  const row = await base(ctx).select(COLUMNS).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Payslip');
  const lines = await ctx.db
    .selectFrom('payslip_lines')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('payslip_id', '=', id)
    .orderBy('position')
    .execute();
  return {
    ...toSummary(row as unknown as Row),
    lines: lines.map((l) => ({
      kind: l.kind,
      irp5Code: l.irp5_code,
      description: l.description,
      quantity: l.quantity === null ? null : Number(l.quantity),
      rate: l.rate === null ? null : Number(l.rate),
      amount: toNumber(l.amount),
    })),
  };
}
