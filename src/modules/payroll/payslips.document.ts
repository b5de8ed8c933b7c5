// A payslip on paper: what the Basic Conditions of Employment Act s33(1) asks every payslip to
// give (the employer's name and address; the employee's name and occupation; the period; the
// pay, with the hours worked where paid by the hour or for overtime; each deduction and what it
// is for; the amount paid), each line with its IRP5 source code, the employer's contributions and
// the taxable fringe benefits, what goes on the tax certificate besides (the employer's
// contributions deemed paid by the employee, the medical scheme fees tax credit: IRP5 4001, 4005,
// 4116), the tax year to date, and the leave available. The bank account
// shows its last four digits only. The employment tax incentive is the employer's claim against
// its PAYE, not the employee's pay: it is not printed. A payslip of a period not yet finalised
// says DRAFT (it may still change).

import type { Decimal } from 'decimal.js';
import type { FileDocument, Row } from '../../platform/files/table.ts';
import { longDate } from '../../platform/files/table.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { notFound } from '../../platform/http/problem.ts';
import { money, sum } from '../../platform/money/money.ts';
import { maskedAccountNumber } from '../../platform/secrets/masked.ts';
import { companyOf } from '../../platform/work/context.ts';
import { findEmployeeRow } from './employees.queries.ts';
import { balancesOf } from './leave.balances.ts';
import { readPayslip } from './payslips.service.ts';

type Ctx = TenantCtx;
type Line = Awaited<ReturnType<typeof readPayslip>>['lines'][number];

const YTD = ['gross', 'taxable', 'paye', 'uif_employee', 'net'] as const;

/** The tax year's figures to this payslip: the employee's current payslips of locked periods of the
 *  same tax year ending on or before this one, this payslip included whatever its state. */
async function yearToDate(
  ctx: Ctx,
  payslip: { id: string; employeeId: string; taxYear: string; periodEnd: string },
) {
  const rows = await ctx.db
    .selectFrom('payslips as s')
    .innerJoin('payroll_periods as p', (j) =>
      j.onRef('p.tenant_id', '=', 's.tenant_id').onRef('p.id', '=', 's.period_id'),
    )
    .select(YTD.map((c) => `s.${c}` as const))
    .where('s.tenant_id', '=', ctx.tenantId)
    .where('s.company_id', '=', companyOf(ctx))
    .where('s.employee_id', '=', payslip.employeeId)
    .where('s.tax_year', '=', payslip.taxYear)
    .where('s.replaced_at', 'is', null)
    .where('p.period_end', '<=', payslip.periodEnd)
    .where((eb) => eb.or([eb('p.status', 'in', ['finalised', 'paid']), eb('s.id', '=', payslip.id)]))
    .execute();
  return Object.fromEntries(YTD.map((c) => [c, sum(rows.map((r) => r[c]))])) as Record<
    (typeof YTD)[number],
    Decimal
  >;
}

const COLUMNS = [
  { label: 'Description', width: 3.2, wrap: true },
  { label: 'IRP5 code', width: 0.9 },
  { label: 'Hours / days', kind: 'number' as const, width: 1 },
  { label: 'Rate', kind: 'money' as const, width: 1 },
  { label: 'Amount', kind: 'money' as const, width: 1.1 },
];

/** A line as printed. A salary's basic line carries the share of the period employed as its
 *  quantity (1, or less pro rata): not hours or days, so neither it nor the rate is printed. */
function rowOf(l: Line): Row {
  const share = l.description.startsWith('Basic salary');
  return {
    cells: [
      l.description,
      l.irp5Code,
      share || l.quantity === null ? null : l.quantity,
      share || l.rate === null ? null : money(l.rate),
      money(l.amount),
    ],
  };
}

const totalRow = (label: string, amount: number | Decimal, style: 'total' | 'grand' = 'total'): Row => ({
  cells: [label, null, null, null, money(amount)],
  style,
});

export interface PayslipPaper {
  doc: FileDocument;
  /** Where the employee reads it: the EMPLOYEE contact's e-mail address, if any. */
  email: string | null;
  employeeName: string;
  /** What opens the e-mailed PDF: the ID number, else the passport number. */
  password: { value: string; what: 'ID number' | 'passport number' } | null;
  payDate: string;
  final: boolean;
}

export async function payslipPaper(ctx: Ctx, id: string): Promise<PayslipPaper> {
  const slip = await readPayslip(ctx, id);
  const employee = await findEmployeeRow(ctx.db, ctx.tenantId, companyOf(ctx), slip.employeeId, {
    deleted: true,
  });
  if (!employee) throw notFound('Payslip');
  const company = await ctx.db
    .selectFrom('companies')
    .select(['name', 'address_line1', 'address_line2', 'city', 'postal_code', 'registration_no'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', companyOf(ctx))
    .executeTakeFirstOrThrow();
  const contact = await ctx.db
    .selectFrom('contacts')
    .select('email')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', employee.contact_id)
    .executeTakeFirst();
  const ytd = await yearToDate(ctx, slip);
  const leave = await balancesOf(ctx.db, ctx.tenantId, employee, slip.periodEnd);
  const available = (type: string) => leave.find((b) => b.type === type)?.available ?? null;
  const final = slip.status === 'finalised' || slip.status === 'paid';

  const of = (kind: Line['kind']) => slip.lines.filter((l) => l.kind === kind);
  const earnings = of('earning');
  const deductions = of('deduction');
  const fringe = of('fringe_benefit');
  const employer = of('employer');
  const certificate = of('tax_certificate');
  const address = [company.address_line1, company.address_line2, company.city, company.postal_code]
    .filter(Boolean)
    .join(', ');
  const bank = employee.bank_account_last4
    ? `Paid into ${employee.bank_name ?? 'the bank'} account ${maskedAccountNumber(employee.bank_account_last4)}`
    : null;
  const annual = available('annual');
  const sick = available('sick');
  const name = `${employee.first_name} ${employee.last_name}`;
  const doc: FileDocument = {
    title: `Payslip ${longDate(slip.periodStart)} to ${longDate(slip.periodEnd)}`,
    organisation: company.name,
    period: `${name} (${employee.employee_number}), paid ${longDate(slip.payDate)}`,
    notes: [
      ...(address ? [address] : []),
      ...(company.registration_no ? [`Registration No. ${company.registration_no}`] : []),
      [
        `Employee: ${name}`,
        ...(employee.job_title ? [employee.job_title] : []),
        `employed since ${longDate(employee.start_date)}`,
      ].join(', '),
      ...(employee.tax_number ? [`Income tax number ${employee.tax_number}`] : []),
      `Tax year ${slip.taxYear}; days employed in the period: ${slip.daysWorked}` +
        (slip.unpaidDays > 0 ? `; unpaid leave: ${slip.unpaidDays} days` : ''),
      ...(bank ? [bank] : []),
      ...(annual !== null || sick !== null
        ? [
            `Leave available at ${longDate(slip.periodEnd)}: ` +
              [
                ...(annual !== null ? [`annual ${annual.toString()} days`] : []),
                ...(sick !== null ? [`sick ${sick.toString()} days`] : []),
              ].join(', '),
          ]
        : []),
      ...(final ? [] : ['DRAFT: the period is not finalised; these figures may still change']),
    ],
    filename: `payslip-${employee.employee_number}-${slip.periodEnd}`,
    generatedAt: ctx.deps.now(),
    tables: [
      {
        title: 'Earnings',
        columns: COLUMNS,
        rows: [...earnings.map(rowOf), totalRow('Gross pay', slip.gross)],
      },
      {
        title: 'Deductions',
        columns: COLUMNS,
        rows: [
          ...deductions.map(rowOf),
          totalRow('Total deductions', sum(deductions.map((l) => String(l.amount)))),
          totalRow('Net pay', slip.net, 'grand'),
        ],
      },
      ...(fringe.length > 0
        ? [
            {
              title: 'Taxable fringe benefits (not paid in cash)',
              columns: COLUMNS,
              rows: fringe.map(rowOf),
            },
          ]
        : []),
      ...(employer.length > 0
        ? [{ title: "The employer's contributions", columns: COLUMNS, rows: employer.map(rowOf) }]
        : []),
      ...(certificate.length > 0
        ? [
            {
              title: 'For your tax certificate (IRP5): neither paid nor deducted',
              columns: COLUMNS,
              rows: certificate.map(rowOf),
            },
          ]
        : []),
      {
        title: `Tax year ${slip.taxYear} to date`,
        columns: [
          { label: 'Gross pay', kind: 'money' },
          { label: 'Taxable', kind: 'money' },
          { label: 'PAYE', kind: 'money' },
          { label: 'UIF', kind: 'money' },
          { label: 'Net pay', kind: 'money' },
        ],
        rows: [{ cells: YTD.map((c) => ytd[c]) }],
      },
    ],
  };
  const password = employee.id_number
    ? { value: employee.id_number, what: 'ID number' as const }
    : employee.passport_number
      ? { value: employee.passport_number, what: 'passport number' as const }
      : null;
  return { doc, email: contact?.email ?? null, employeeName: name, password, payDate: slip.payDate, final };
}

/** The PDF's bytes; encrypted when a password is given (an e-mailed payslip). */
export async function payslipPdf(doc: FileDocument, password?: string): Promise<Buffer> {
  const { toPdf } = await import('../../platform/files/pdf.ts');
  return toPdf(doc, password ? { userPassword: password } : {});
}
