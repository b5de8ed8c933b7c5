// Pay periods: open one, list, read, the per-employee inputs, and calculate (one payslip per
// payable employee, replacing the last calculation's). Finalising and paying: pay-runs.ledger.ts.
// A period of one frequency never overlaps another of the company: checked under an advisory
// lock on (company, frequency), as a unique index cannot say "overlaps".

import type { Decimal } from 'decimal.js';
import { type Selectable, sql } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, HttpError, notFound } from '../../platform/http/problem.ts';
import { cents, hasAtMostDecimals, money, sum, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { listPayableEmployees } from './employees.payable.ts';
import { calculatePayslip, NO_INPUTS, type PayslipFigures, type PeriodInputs } from './pay-runs.calc.ts';
import { etiMonthToDate } from './pay-runs.eti.ts';
import type {
  PayrollPeriod,
  PayrollPeriodCreate,
  PayrollPeriodListQuery,
  PayslipInput,
  PayslipInputBody,
} from './pay-runs.schemas.ts';
import { judgeSdl } from './pay-runs.sdl.ts';
import type { PayrollPeriodsTable } from './pay-runs.tables.ts';
import { type PeriodWarning, warningsOf } from './payslip-warnings.ts';
import { statutoryFor } from './statutory.ts';

type Ctx = TenantCtx;
export type PeriodRow = Selectable<PayrollPeriodsTable>;

export const periodFinalised = (status: string) =>
  new HttpError(409, `The period is ${status}: it is locked, and a correction goes in the next period`, {
    code: 'PERIOD_FINALISED',
  });

export function toPeriod(r: PeriodRow): Static<typeof PayrollPeriod> {
  return {
    id: r.id,
    companyId: r.company_id,
    frequency: r.frequency,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    payDate: r.pay_date,
    status: r.status,
    employeeCount: r.employee_count,
    gross: toNumber(r.gross),
    paye: toNumber(r.paye),
    uifEmployee: toNumber(r.uif_employee),
    uifEmployer: toNumber(r.uif_employer),
    sdl: toNumber(r.sdl),
    eti: toNumber(r.eti),
    retirementEmployee: toNumber(r.retirement_employee),
    retirementEmployer: toNumber(r.retirement_employer),
    medicalEmployee: toNumber(r.medical_employee),
    medicalEmployer: toNumber(r.medical_employer),
    otherDeductions: toNumber(r.other_deductions),
    net: toNumber(r.net),
    warnings: warningsOf<PeriodWarning>(r.warnings),
    sdlExempt: r.sdl_exempt,
    sdlLeviableExpected: r.sdl_expected === null ? null : toNumber(r.sdl_expected),
    entryId: r.entry_id,
    paymentEntryId: r.payment_entry_id,
    bankAccountId: r.bank_account_id,
    calculatedAt: r.calculated_at?.toISOString() ?? null,
    finalisedAt: r.finalised_at?.toISOString() ?? null,
    paidAt: r.paid_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The company's period (404 for none, another company's or another tenant's); `lock` for a change. */
export async function periodRow(ctx: Ctx, id: string, lock = false): Promise<PeriodRow> {
  let q = ctx.db
    .selectFrom('payroll_periods')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('Payroll period');
  return row;
}

/** Inputs and calculation: only while open or calculated. */
function assertEditable(row: PeriodRow) {
  if (row.status === 'finalised' || row.status === 'paid') throw periodFinalised(row.status);
}

export async function readPeriod(ctx: Ctx, id: string) {
  return toPeriod(await periodRow(ctx, id));
}

export async function createPeriod(ctx: Ctx, input: Static<typeof PayrollPeriodCreate>) {
  const companyId = companyOf(ctx);
  if (input.periodEnd < input.periodStart) throw badRequest('periodEnd', 'must not be before periodStart');
  if (input.payDate < input.periodStart) throw badRequest('payDate', 'must not be before periodStart');
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'payroll_periods',
    owner: ['company_id', companyId],
  });
  if (replay) {
    ctx.reply.code(200);
    return toPeriod(
      await ctx.db
        .selectFrom('payroll_periods')
        .selectAll()
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    );
  }
  await sql`select pg_advisory_xact_lock(hashtext(${`payroll:${companyId}:${input.frequency}`}))`.execute(
    ctx.db,
  );
  const overlap = await ctx.db
    .selectFrom('payroll_periods')
    .select(['period_start', 'period_end'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('frequency', '=', input.frequency)
    .where('period_start', '<=', input.periodEnd)
    .where('period_end', '>=', input.periodStart)
    .executeTakeFirst();
  if (overlap)
    throw conflict(
      `periodStart: the ${input.frequency} period ${overlap.period_start} to ${overlap.period_end} overlaps it`,
      { field: 'periodStart' },
    );
  await ctx.db
    .insertInto('payroll_periods')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      frequency: input.frequency,
      period_start: input.periodStart,
      period_end: input.periodEnd,
      pay_date: input.payDate,
      client_id: input.clientId ? id : null,
    })
    .execute();
  ctx.reply.code(201);
  return readPeriod(ctx, id);
}

export async function listPeriods(
  ctx: Ctx,
  query: Static<typeof PayrollPeriodListQuery>,
): Promise<Page<Static<typeof PayrollPeriod>>> {
  const p = paging(query);
  let q = ctx.db
    .selectFrom('payroll_periods')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  if (query.status) q = q.where('status', '=', query.status);
  if (query.frequency) q = q.where('frequency', '=', query.frequency);
  if (query.from) q = q.where('period_end', '>=', query.from);
  if (query.to) q = q.where('period_start', '<=', query.to);
  const { rows, total } = await pageOfQuery(
    q,
    { columns: ['period_start', 'frequency'], direction: 'desc' },
    p,
  );
  return pageOf(rows.map(toPeriod), total, p);
}

const INPUT_FIELDS = [
  ['overtimeHours', 'overtime_hours'],
  ['commission', 'commission'],
  ['bonus', 'bonus'],
  ['travelAllowance', 'travel_allowance'],
  ['otherAllowances', 'other_allowances'],
  ['otherDeductions', 'other_deductions'],
] as const;

export async function putInputs(
  ctx: Ctx,
  periodId: string,
  employeeId: string,
  body: Static<typeof PayslipInputBody>,
): Promise<Static<typeof PayslipInput>> {
  const row = await periodRow(ctx, periodId, true);
  assertEditable(row);
  const employee = await ctx.db
    .selectFrom('employees')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', row.company_id)
    .where('id', '=', employeeId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!employee) throw notFound('Employee');
  const values: Record<string, string | null> = {};
  for (const [field, column] of INPUT_FIELDS) {
    const v = body[field];
    if (v !== undefined && !hasAtMostDecimals(v, 2))
      throw badRequest(field, 'must have at most two decimals');
    values[column] = toSql(v ?? 0);
  }
  if (body.ordinaryHours != null && !hasAtMostDecimals(body.ordinaryHours, 2))
    throw badRequest('ordinaryHours', 'must have at most two decimals');
  values.ordinary_hours = body.ordinaryHours == null ? null : toSql(body.ordinaryHours);
  // A PUT replaces the employee's inputs for the period whole (what is left out is 0).
  await ctx.db
    .insertInto('payslip_inputs')
    .values({
      tenant_id: ctx.tenantId,
      period_id: periodId,
      employee_id: employeeId,
      company_id: row.company_id,
      ...values,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'period_id', 'employee_id']).doUpdateSet(values))
    .execute();
  const r = await ctx.db
    .selectFrom('payslip_inputs')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('period_id', '=', periodId)
    .where('employee_id', '=', employeeId)
    .executeTakeFirstOrThrow();
  return {
    periodId,
    employeeId,
    ordinaryHours: r.ordinary_hours === null ? null : toNumber(r.ordinary_hours),
    overtimeHours: toNumber(r.overtime_hours),
    commission: toNumber(r.commission),
    bonus: toNumber(r.bonus),
    travelAllowance: toNumber(r.travel_allowance),
    otherAllowances: toNumber(r.other_allowances),
    otherDeductions: toNumber(r.other_deductions),
    updatedAt: r.updated_at.toISOString(),
  };
}

async function inputsOf(ctx: Ctx, periodId: string): Promise<Map<string, PeriodInputs>> {
  const rows = await ctx.db
    .selectFrom('payslip_inputs')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('period_id', '=', periodId)
    .execute();
  return new Map(
    rows.map((r) => [
      r.employee_id,
      {
        ordinaryHours: r.ordinary_hours === null ? null : money(r.ordinary_hours),
        overtimeHours: money(r.overtime_hours),
        commission: money(r.commission),
        bonus: money(r.bonus),
        travelAllowance: money(r.travel_allowance),
        otherAllowances: money(r.other_allowances),
        otherDeductions: money(r.other_deductions),
      },
    ]),
  );
}

const DAY = 86_400_000;
const dayNo = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;
/** Monday to Friday from a to b (day numbers, inclusive). */
function weekdays(a: number, b: number): number {
  let n = 0;
  for (let d = a; d <= b; d++) if ((d + 4) % 7 >= 1 && (d + 4) % 7 <= 5) n++; // 1970-01-01: a Thursday
  return n;
}

/**
 * Approved unpaid leave in the period, working days by employee: a request inside the period
 * counts its own days (half days kept); one crossing the period's edge counts the weekdays of the
 * part inside, at most its days.
 */
async function unpaidLeave(
  ctx: Ctx,
  companyId: string,
  from: string,
  to: string,
): Promise<Map<string, Decimal>> {
  const rows = await ctx.db
    .selectFrom('leave_requests')
    .select(['employee_id', 'starts_on', 'ends_on', 'days'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('leave_type', '=', 'unpaid')
    .where('status', '=', 'approved')
    .where('deleted_at', 'is', null)
    .where('starts_on', '<=', to)
    .where('ends_on', '>=', from)
    .execute();
  const out = new Map<string, Decimal>();
  for (const r of rows) {
    const inside = r.starts_on >= from && r.ends_on <= to;
    const part = money(
      weekdays(Math.max(dayNo(r.starts_on), dayNo(from)), Math.min(dayNo(r.ends_on), dayNo(to))),
    );
    const days = inside || part.gt(r.days) ? money(r.days) : part;
    out.set(r.employee_id, (out.get(r.employee_id) ?? money(0)).plus(days));
  }
  return out;
}

const TOTALS = [
  ['gross', 'gross'],
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

/**
 * open | calculated → calculated: one payslip for each employee of the period's frequency
 * employed on a day of it, with the statutory figures of the period's end; the payslips of an
 * earlier calculation are retired (replaced_at), never deleted. A net pay below zero is refused
 * (400 naming the employee's otherDeductions input).
 */
export async function calculatePeriod(ctx: Ctx, id: string) {
  const row = await periodRow(ctx, id, true);
  assertEditable(row);
  const st = await statutoryFor(ctx.db, row.period_end);
  const employees = (
    await listPayableEmployees(ctx.db, row.company_id, row.period_start, row.period_end)
  ).filter((e) => e.payFrequency === row.frequency);
  const inputs = await inputsOf(ctx, id);
  for (const [employeeId, days] of await unpaidLeave(ctx, row.company_id, row.period_start, row.period_end))
    inputs.set(employeeId, { ...(inputs.get(employeeId) ?? NO_INPUTS), unpaidDays: days });
  const p = { frequency: row.frequency, start: row.period_start, end: row.period_end };
  // Weekly and fortnightly: the ETI month to date (the month's earlier payslips, pay-runs.eti.ts).
  const before = await etiMonthToDate(ctx, row, employees);
  const slip = (e: (typeof employees)[number], exempt: boolean) =>
    calculatePayslip(p, e, inputs.get(e.id) ?? NO_INPUTS, st, exempt, before.get(e.id));
  // SDL exemption: judged for the employer across all its runs, never this run alone
  // (pay-runs.sdl.ts): what the company paid in the last twelve months, or its employees'
  // contracts for the next twelve, whichever is more, at most the threshold.
  const draft = employees.map((e) => slip(e, false));
  const thisRun = sum(draft.filter((_, i) => employees[i]!.sdlApplies).map((d) => d.taxable));
  const sdl = await judgeSdl(ctx, row, st.sdl, thisRun);
  const slips = sdl.exempt ? employees.map((e) => slip(e, true)) : draft;
  for (const [i, s] of slips.entries())
    if (s.net.isNegative())
      throw badRequest(
        'otherDeductions',
        `employee ${employees[i]!.employeeNumber}: the deductions exceed the pay (net ${s.net.toFixed(2)})`,
      );

  const now = ctx.deps.now();
  await ctx.db
    .updateTable('payslips')
    .set({ replaced_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('period_id', '=', id)
    .where('replaced_at', 'is', null)
    .execute();
  for (const [i, s] of slips.entries()) await insertPayslip(ctx, row.company_id, id, employees[i]!.id, s);

  const totals: Record<string, string> = {};
  for (const [column, key] of TOTALS) totals[column] = toSql(sum(slips.map((s) => s[key])));
  const warnings: PeriodWarning[] = slips.flatMap((s, i) =>
    s.warnings.map((w) => ({
      ...w,
      employeeId: employees[i]!.id,
      employeeNumber: employees[i]!.employeeNumber,
    })),
  );
  await ctx.db
    .updateTable('payroll_periods')
    .set({
      ...totals,
      employee_count: slips.length,
      status: 'calculated',
      calculated_at: now,
      warnings: JSON.stringify(warnings),
      sdl_expected: toSql(cents(sdl.expected)),
      sdl_exempt: sdl.exempt,
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return readPeriod(ctx, id);
}

async function insertPayslip(
  ctx: Ctx,
  companyId: string,
  periodId: string,
  employeeId: string,
  s: PayslipFigures,
) {
  const payslipId = crypto.randomUUID();
  await ctx.db
    .insertInto('payslips')
    .values({
      tenant_id: ctx.tenantId,
      id: payslipId,
      company_id: companyId,
      period_id: periodId,
      employee_id: employeeId,
      tax_year: s.taxYear,
      period_fraction: s.fraction.toFixed(10),
      days_worked: s.daysWorked,
      unpaid_days: s.unpaidDays.toFixed(2),
      gross: toSql(s.gross),
      taxable: toSql(s.taxable),
      paye: toSql(s.paye),
      uif_employee: toSql(s.uifEmployee),
      uif_employer: toSql(s.uifEmployer),
      sdl: toSql(s.sdl),
      eti: toSql(s.eti),
      retirement_employee: toSql(s.retirementEmployee),
      retirement_employer: toSql(s.retirementEmployer),
      medical_employee: toSql(s.medicalEmployee),
      medical_employer: toSql(s.medicalEmployer),
      other_deductions: toSql(s.otherDeductions),
      net: toSql(s.net),
      eti_remuneration: toSql(s.etiBasis.remuneration),
      eti_wage: toSql(s.etiBasis.wage),
      eti_hours: s.etiBasis.hours.toFixed(4),
      eti_ordinary_hours: s.etiBasis.ordinaryHours.toFixed(4),
      eti_reason: s.etiReason,
      warnings: JSON.stringify(s.warnings),
    })
    .execute();
  if (s.lines.length === 0) return;
  await ctx.db
    .insertInto('payslip_lines')
    .values(
      s.lines.map((l, i) => ({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        payslip_id: payslipId,
        position: i + 1,
        kind: l.kind,
        irp5_code: l.irp5Code,
        description: l.description,
        quantity: l.quantity === null ? null : l.quantity.toFixed(4),
        rate: l.rate === null ? null : l.rate.toFixed(4),
        amount: toSql(l.amount),
      })),
    )
    .execute();
}
