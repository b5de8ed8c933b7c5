// The statutory figures that apply on a date (a payslip's pay date), read from the reference
// tables of migration 0052 into the plain, exact shapes the calculators take (calc/*.ts):
//   * the PAYE tax year containing the date, with its brackets;
//   * the UIF and SDL rates in effect (the latest effective_from on or before the date);
//   * the ETI rules in effect, or null when the scheme has ended (the date is after the latest
//     rules' effective_to: no incentive, nothing missing);
//   * the National Minimum Wage an hour in effect (migration 0070), which the ETI's wage test
//     holds a wage to (ETI Act s4(1)).
// Anything missing refuses the payroll: 422 PAYROLL_TABLES_MISSING, its detail and `reasons`
// naming each table missing ("no PAYE tax year covers 2027-03-31"), never a guess from the
// nearest year.
import type { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { HttpError } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import type { EtiRules } from './calc/eti.ts';
import type { SdlRates } from './calc/sdl.ts';
import type { TaxYearTables } from './calc/tax.ts';
import type { UifRates } from './calc/uif.ts';

export interface Statutory {
  date: string;
  taxYear: TaxYearTables;
  uif: UifRates;
  sdl: SdlRates;
  /** null: no ETI on this date (the scheme's last rules ended before it). */
  eti: EtiRules | null;
  /** The National Minimum Wage for each ordinary hour worked, from the date it took effect. */
  minimumWage: MinimumWage;
}

export interface MinimumWage {
  effectiveFrom: string;
  hourly: Decimal;
}

/** 422 PAYROLL_TABLES_MISSING naming what is missing. */
export function tablesMissing(date: string, reasons: string[]): HttpError {
  return new HttpError(422, `Payroll tables missing for ${date}: ${reasons.join('; ')}`, {
    code: 'PAYROLL_TABLES_MISSING',
    reasons,
  });
}

async function taxYearOn(db: Kysely<DB>, date: string, missing: string[]): Promise<TaxYearTables | null> {
  const y = await db
    .selectFrom('payroll_tax_years')
    .selectAll()
    .where('starts_on', '<=', date)
    .where('ends_on', '>=', date)
    .executeTakeFirst();
  if (!y) {
    missing.push(`no PAYE tax year covers ${date}`);
    return null;
  }
  const brackets = await db
    .selectFrom('payroll_tax_brackets')
    .selectAll()
    .where('tax_year', '=', y.code)
    .orderBy('from_amount')
    .execute();
  if (brackets.length === 0 || money(brackets[0]!.from_amount).gt(0)) {
    missing.push(`the PAYE tax year ${y.code} has no brackets from 0`);
    return null;
  }
  return {
    code: y.code,
    startsOn: y.starts_on,
    endsOn: y.ends_on,
    brackets: brackets.map((b) => ({
      from: money(b.from_amount),
      baseTax: money(b.base_tax),
      rate: money(b.rate),
    })),
    rebates: {
      primary: money(y.rebate_primary),
      secondary: money(y.rebate_secondary),
      tertiary: money(y.rebate_tertiary),
    },
    thresholds: {
      under65: money(y.threshold_under_65),
      from65: money(y.threshold_65_to_74),
      from75: money(y.threshold_75_and_over),
    },
    medicalCredit: {
      main: money(y.medical_credit_main),
      firstDependant: money(y.medical_credit_first_dependant),
      additional: money(y.medical_credit_additional),
    },
    retirement: { rate: money(y.retirement_deduction_rate), cap: money(y.retirement_deduction_cap) },
  };
}

async function uifOn(db: Kysely<DB>, date: string, missing: string[]): Promise<UifRates | null> {
  const r = await db
    .selectFrom('payroll_uif_rates')
    .selectAll()
    .where('effective_from', '<=', date)
    .orderBy('effective_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r) {
    missing.push(`no UIF rates in effect on ${date}`);
    return null;
  }
  return {
    effectiveFrom: r.effective_from,
    employeeRate: money(r.employee_rate),
    employerRate: money(r.employer_rate),
    monthlyCeiling: money(r.monthly_ceiling),
  };
}

async function sdlOn(db: Kysely<DB>, date: string, missing: string[]): Promise<SdlRates | null> {
  const r = await db
    .selectFrom('payroll_sdl_rates')
    .selectAll()
    .where('effective_from', '<=', date)
    .orderBy('effective_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r) {
    missing.push(`no SDL rate in effect on ${date}`);
    return null;
  }
  return {
    effectiveFrom: r.effective_from,
    rate: money(r.rate),
    exemptionThreshold: money(r.exemption_threshold),
  };
}

async function etiOn(db: Kysely<DB>, date: string, missing: string[]): Promise<EtiRules | null> {
  const r = await db
    .selectFrom('payroll_eti_rules')
    .selectAll()
    .where('effective_from', '<=', date)
    .orderBy('effective_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r) {
    missing.push(`no ETI rules in effect on ${date}`);
    return null;
  }
  if (r.effective_to < date) return null; // the scheme ended: no incentive, nothing missing
  const bands = await db
    .selectFrom('payroll_eti_bands')
    .selectAll()
    .where('rules_from', '=', r.effective_from)
    .orderBy('period')
    .orderBy('from_amount')
    .execute();
  if (bands.length === 0) {
    missing.push(`the ETI rules from ${r.effective_from} have no bands`);
    return null;
  }
  return {
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    minAge: r.min_age,
    maxAge: r.max_age,
    months: r.months,
    firstPeriodMonths: r.first_period_months,
    maxRemuneration: money(r.max_remuneration),
    minimumWage: money(r.minimum_wage),
    minimumWageHours: money(r.minimum_wage_hours),
    bands: bands.map((b) => ({
      period: b.period,
      from: money(b.from_amount),
      to: money(b.to_amount),
      kind: b.kind,
      rate: b.rate === null ? null : money(b.rate),
      amount: b.amount === null ? null : money(b.amount),
    })),
  };
}

async function minimumWageOn(db: Kysely<DB>, date: string, missing: string[]): Promise<MinimumWage | null> {
  const r = await db
    .selectFrom('payroll_minimum_wages')
    .selectAll()
    .where('effective_from', '<=', date)
    .orderBy('effective_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r) {
    missing.push(`no national minimum wage in effect on ${date}`);
    return null;
  }
  return { effectiveFrom: r.effective_from, hourly: money(r.hourly) };
}

/** What applies on `date` (ISO): every table, or 422 PAYROLL_TABLES_MISSING naming each gap. */
export async function statutoryFor(db: Kysely<DB>, date: string): Promise<Statutory> {
  const missing: string[] = [];
  const taxYear = await taxYearOn(db, date, missing);
  const uif = await uifOn(db, date, missing);
  const sdl = await sdlOn(db, date, missing);
  const eti = await etiOn(db, date, missing);
  const minimumWage = await minimumWageOn(db, date, missing);
  if (missing.length > 0 || !taxYear || !uif || !sdl || !minimumWage) throw tablesMissing(date, missing);
  return { date, taxYear, uif, sdl, eti, minimumWage };
}
