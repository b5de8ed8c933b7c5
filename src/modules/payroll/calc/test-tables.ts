// For the calculators' tests: the published figures as the calculators take them, written out
// here from SARS's tables (the same figures migration 0052 seeds; statutory.test.ts proves the
// two agree, so a test worked on these is a test of the seeded data too).
import { money } from '../../../platform/money/money.ts';
import type { MinimumWage } from '../statutory.ts';
import type { EtiBand, EtiRules } from './eti.ts';
import type { SdlRates } from './sdl.ts';
import type { TaxYearTables } from './tax.ts';
import type { UifRates } from './uif.ts';

const brackets = (rows: Array<[number, number, number]>) =>
  rows.map(([from, baseTax, rate]) => ({ from: money(from), baseTax: money(baseTax), rate: money(rate) }));

/** 2026/27: SARS Rates of tax for individuals, 2027 tax year (Budget 2026). */
export const Y2027: TaxYearTables = {
  code: '2026/27',
  startsOn: '2026-03-01',
  endsOn: '2027-02-28',
  brackets: brackets([
    [0, 0, 0.18],
    [245100, 44118, 0.26],
    [383100, 79998, 0.31],
    [530200, 125599, 0.36],
    [695800, 185215, 0.39],
    [887000, 259783, 0.41],
    [1878600, 666339, 0.45],
  ]),
  rebates: { primary: money(17820), secondary: money(9765), tertiary: money(3249) },
  thresholds: { under65: money(99000), from65: money(153250), from75: money(171300) },
  medicalCredit: { main: money(376), firstDependant: money(376), additional: money(254) },
  retirement: { rate: money(0.275), cap: money(430000) },
};

/** 2025/26: SARS Rates of tax for individuals, 2026 tax year (unchanged from 2025). */
export const Y2026: TaxYearTables = {
  code: '2025/26',
  startsOn: '2025-03-01',
  endsOn: '2026-02-28',
  brackets: brackets([
    [0, 0, 0.18],
    [237100, 42678, 0.26],
    [370500, 77362, 0.31],
    [512800, 121475, 0.36],
    [673000, 179147, 0.39],
    [857900, 251258, 0.41],
    [1817000, 644489, 0.45],
  ]),
  rebates: { primary: money(17235), secondary: money(9444), tertiary: money(3145) },
  thresholds: { under65: money(95750), from65: money(148217), from75: money(165689) },
  medicalCredit: { main: money(364), firstDependant: money(364), additional: money(246) },
  retirement: { rate: money(0.275), cap: money(350000) },
};

export const UIF_2021: UifRates = {
  effectiveFrom: '2021-06-01',
  employeeRate: money(0.01),
  employerRate: money(0.01),
  monthlyCeiling: money(17712),
};

export const SDL_2005: SdlRates = {
  effectiveFrom: '2005-08-01',
  rate: money(0.01),
  exemptionThreshold: money(500000),
};

const bands = (
  rows: Array<[EtiBand['period'], number, number, EtiBand['kind'], number | null, number | null]>,
) =>
  rows.map(([period, from, to, kind, rate, amount]) => ({
    period,
    from: money(from),
    to: money(to),
    kind,
    rate: rate === null ? null : money(rate),
    amount: amount === null ? null : money(amount),
  }));

/** From 1 April 2025 (Budget 2025): R2 500 / R5 500 / R7 500. */
export const ETI_2025: EtiRules = {
  effectiveFrom: '2025-04-01',
  effectiveTo: '2029-02-28',
  minAge: 18,
  maxAge: 29,
  months: 24,
  firstPeriodMonths: 12,
  maxRemuneration: money(7500),
  minimumWage: money(2500),
  minimumWageHours: money(160),
  bands: bands([
    ['first', 0, 2500, 'rate', 0.6, null],
    ['first', 2500, 5500, 'fixed', null, 1500],
    ['first', 5500, 7500, 'taper', 0.75, 1500],
    ['second', 0, 2500, 'rate', 0.3, null],
    ['second', 2500, 5500, 'fixed', null, 750],
    ['second', 5500, 7500, 'taper', 0.375, 750],
  ]),
};

/** 1 March 2022 to 31 March 2025: R2 000 / R4 500 / R6 500. */
export const ETI_2022: EtiRules = {
  effectiveFrom: '2022-03-01',
  effectiveTo: '2025-03-31',
  minAge: 18,
  maxAge: 29,
  months: 24,
  firstPeriodMonths: 12,
  maxRemuneration: money(6500),
  minimumWage: money(2000),
  minimumWageHours: money(160),
  bands: bands([
    ['first', 0, 2000, 'rate', 0.75, null],
    ['first', 2000, 4500, 'fixed', null, 1500],
    ['first', 4500, 6500, 'taper', 0.75, 1500],
    ['second', 0, 2000, 'rate', 0.375, null],
    ['second', 2000, 4500, 'fixed', null, 750],
    ['second', 4500, 6500, 'taper', 0.375, 750],
  ]),
};

/** The National Minimum Wage an ordinary hour (migration 0070): R28.79 from 1 March 2025 (GG 52053). */
export const NMW_2025: MinimumWage = { effectiveFrom: '2025-03-01', hourly: money(28.79) };
/** R30.23 from 1 March 2026 (GG 54075). */
export const NMW_2026: MinimumWage = { effectiveFrom: '2026-03-01', hourly: money(30.23) };
