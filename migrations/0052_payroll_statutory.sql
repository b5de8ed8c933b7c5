-- Payroll's statutory tables (issue 21): the figures PAYE, UIF, SDL and the ETI are worked from,
-- as data with the date each takes effect, never as constants in code. They are reference tables
-- (the same for every tenant, no tenant_id; src/platform/db/reference-tables.ts lists them) and
-- the app role only reads them (GRANT SELECT, as mileage_rates). A payroll for a date no row
-- covers is refused naming what is missing (src/modules/payroll/statutory.ts).
--
-- Sources (checked 2026-11-27; each row names its own):
--   * PAYE 2026/27 (1 March 2026 – 28 February 2027): Budget 2026 (25 February 2026), SARS "Rates
--     of tax for individuals" (sars.gov.za/tax-rates/income-tax/rates-of-tax-for-individuals/):
--     brackets 245 100 / 383 100 / 530 200 / 695 800 / 887 000 / 1 878 600; rebates 17 820 /
--     9 765 / 3 249; thresholds 99 000 / 153 250 / 171 300; medical scheme fees tax credit
--     (sars.gov.za/tax-rates/medical-tax-credit-rates/) 376 / 376 / 254 a month; retirement fund
--     deduction (s11F) 27.5% capped at R430 000 a year from 1 March 2026 (Budget Review 2026, was
--     R350 000 since 1 March 2016). Each bracket's base tax re-derived: 18% × 245 100 = 44 118;
--     + 26% × 138 000 = 79 998; + 31% × 147 100 = 125 599; + 36% × 165 600 = 185 215;
--     + 39% × 191 200 = 259 783; + 41% × 991 600 = 666 339. Each threshold = rebates ÷ 18%:
--     17 820 ÷ 0.18 = 99 000; 27 585 ÷ 0.18 = 153 250; 30 834 ÷ 0.18 = 171 300.
--   * PAYE 2025/26 (1 March 2025 – 28 February 2026): unchanged from 2024/25 (no inflation
--     adjustment in the 2025 Budget): brackets 237 100 / 370 500 / 512 800 / 673 000 / 857 900 /
--     1 817 000; rebates 17 235 / 9 444 / 3 145; thresholds 95 750 / 148 217 / 165 689; medical
--     credits 364 / 364 / 246; retirement cap R350 000.
--   * UIF: Unemployment Insurance Contributions Act s6: 1% employee + 1% employer; the ceiling
--     R17 712 a month from 1 June 2021 (Government Gazette 44536, Minister of Employment and Labour).
--   * SDL: Skills Development Levies Act s3: 1% of leviable remuneration; s4(b) exempts an employer
--     whose remuneration over the next twelve months is not expected to exceed R500 000 (from
--     1 August 2005).
--   * ETI: Employment Tax Incentive Act 26 of 2013 s7, as amended: the bands below from
--     1 March 2022 to 31 March 2025 (R2 000 / R4 500 / R6 500; 75% / 37.5%; R1 500 / R750), and
--     from 1 April 2025 (Budget 2025; Rates and Monetary Amounts Act 2025: R2 500 / R5 500 /
--     R7 500; 60% / 30%; R1 500 / R750); the minimum wage where no wage-regulating measure applies
--     R2 000 then R2 500 for 160 hours; the scheme runs to 28 February 2029 (s12).

-- A tax year (year of assessment): its rebates, thresholds, medical credits and the retirement
-- fund deduction's limits. Its brackets are in payroll_tax_brackets.
CREATE TABLE payroll_tax_years (
  code text PRIMARY KEY CHECK (code ~ '^[0-9]{4}/[0-9]{2}$'),
  starts_on date NOT NULL UNIQUE,
  ends_on date NOT NULL UNIQUE CHECK (ends_on > starts_on),
  rebate_primary numeric(12, 2) NOT NULL CHECK (rebate_primary >= 0),
  rebate_secondary numeric(12, 2) NOT NULL CHECK (rebate_secondary >= 0),
  rebate_tertiary numeric(12, 2) NOT NULL CHECK (rebate_tertiary >= 0),
  -- income below which no tax is payable, by age band (rebates ÷ the first rate: shown, not used)
  threshold_under_65 numeric(12, 2) NOT NULL CHECK (threshold_under_65 >= 0),
  threshold_65_to_74 numeric(12, 2) NOT NULL CHECK (threshold_65_to_74 >= 0),
  threshold_75_and_over numeric(12, 2) NOT NULL CHECK (threshold_75_and_over >= 0),
  -- medical scheme fees tax credit a month (s6A): the member, the first dependant, each further
  medical_credit_main numeric(12, 2) NOT NULL CHECK (medical_credit_main >= 0),
  medical_credit_first_dependant numeric(12, 2) NOT NULL CHECK (medical_credit_first_dependant >= 0),
  medical_credit_additional numeric(12, 2) NOT NULL CHECK (medical_credit_additional >= 0),
  -- retirement fund contributions deductible (s11F): rate of remuneration, and a cap a year
  retirement_deduction_rate numeric(6, 4) NOT NULL CHECK (retirement_deduction_rate > 0 AND retirement_deduction_rate <= 1),
  retirement_deduction_cap numeric(14, 2) NOT NULL CHECK (retirement_deduction_cap > 0),
  source text NOT NULL CHECK (btrim(source) <> '')
);
GRANT SELECT ON payroll_tax_years TO bp_app;

-- The rate table of a tax year: tax = base_tax + rate × (income − from_amount), for the band
-- whose from_amount is the highest at or below the income (SARS prints "245 101 – 383 100:
-- 44 118 + 26% of taxable income above 245 100": from_amount 245 100, base_tax 44 118).
CREATE TABLE payroll_tax_brackets (
  tax_year text NOT NULL REFERENCES payroll_tax_years (code),
  from_amount numeric(14, 2) NOT NULL CHECK (from_amount >= 0),
  base_tax numeric(14, 2) NOT NULL CHECK (base_tax >= 0),
  rate numeric(6, 4) NOT NULL CHECK (rate > 0 AND rate < 1),
  PRIMARY KEY (tax_year, from_amount)
);
GRANT SELECT ON payroll_tax_brackets TO bp_app;

CREATE TABLE payroll_uif_rates (
  effective_from date PRIMARY KEY,
  employee_rate numeric(6, 4) NOT NULL CHECK (employee_rate >= 0 AND employee_rate < 1),
  employer_rate numeric(6, 4) NOT NULL CHECK (employer_rate >= 0 AND employer_rate < 1),
  -- the remuneration a month contributions are worked on at most
  monthly_ceiling numeric(12, 2) NOT NULL CHECK (monthly_ceiling > 0),
  source text NOT NULL CHECK (btrim(source) <> '')
);
GRANT SELECT ON payroll_uif_rates TO bp_app;

CREATE TABLE payroll_sdl_rates (
  effective_from date PRIMARY KEY,
  rate numeric(6, 4) NOT NULL CHECK (rate >= 0 AND rate < 1),
  -- an employer whose remuneration over the next twelve months is expected to stay at or below
  -- this is exempt
  exemption_threshold numeric(14, 2) NOT NULL CHECK (exemption_threshold >= 0),
  source text NOT NULL CHECK (btrim(source) <> '')
);
GRANT SELECT ON payroll_sdl_rates TO bp_app;

-- The ETI's rules for the months from effective_from to effective_to (the scheme's end, or the
-- day before the next rules).
CREATE TABLE payroll_eti_rules (
  effective_from date PRIMARY KEY,
  effective_to date NOT NULL CHECK (effective_to >= effective_from),
  min_age integer NOT NULL CHECK (min_age > 0),
  max_age integer NOT NULL CHECK (max_age >= min_age),
  -- months claimable in all (24), the first `first_period_months` (12) at the first bands
  months integer NOT NULL CHECK (months > 0),
  first_period_months integer NOT NULL CHECK (first_period_months > 0 AND first_period_months <= months),
  -- remuneration a month at or above which there is no incentive
  max_remuneration numeric(12, 2) NOT NULL CHECK (max_remuneration > 0),
  -- the wage at least to be paid where no wage-regulating measure applies, for minimum_wage_hours
  -- a month (pro rata below them)
  minimum_wage numeric(12, 2) NOT NULL CHECK (minimum_wage >= 0),
  minimum_wage_hours numeric(6, 2) NOT NULL CHECK (minimum_wage_hours > 0),
  source text NOT NULL CHECK (btrim(source) <> '')
);
GRANT SELECT ON payroll_eti_rules TO bp_app;

-- A band of monthly remuneration [from_amount, to_amount): the incentive a month is
--   rate:   rate × remuneration
--   fixed:  amount
--   taper:  amount − rate × (remuneration − from_amount)
CREATE TABLE payroll_eti_bands (
  rules_from date NOT NULL REFERENCES payroll_eti_rules (effective_from),
  period text NOT NULL CHECK (period IN ('first', 'second')),
  from_amount numeric(12, 2) NOT NULL CHECK (from_amount >= 0),
  to_amount numeric(12, 2) NOT NULL CHECK (to_amount > from_amount),
  kind text NOT NULL CHECK (kind IN ('rate', 'fixed', 'taper')),
  rate numeric(8, 6) CHECK (rate >= 0 AND rate <= 1),
  amount numeric(12, 2) CHECK (amount >= 0),
  PRIMARY KEY (rules_from, period, from_amount),
  CHECK (
    (kind = 'rate' AND rate IS NOT NULL AND amount IS NULL) OR
    (kind = 'fixed' AND rate IS NULL AND amount IS NOT NULL) OR
    (kind = 'taper' AND rate IS NOT NULL AND amount IS NOT NULL)
  )
);
GRANT SELECT ON payroll_eti_bands TO bp_app;

INSERT INTO payroll_tax_years (code, starts_on, ends_on, rebate_primary, rebate_secondary, rebate_tertiary,
    threshold_under_65, threshold_65_to_74, threshold_75_and_over, medical_credit_main,
    medical_credit_first_dependant, medical_credit_additional, retirement_deduction_rate,
    retirement_deduction_cap, source) VALUES
  ('2025/26', '2025-03-01', '2026-02-28', 17235, 9444, 3145, 95750, 148217, 165689, 364, 364, 246, 0.275, 350000,
   'SARS Rates of tax for individuals, 2026 tax year (1 March 2025 – 28 February 2026, unchanged from 2025); ' ||
   'SARS Medical tax credit rates; Income Tax Act s11F (27.5%, R350 000)'),
  ('2026/27', '2026-03-01', '2027-02-28', 17820, 9765, 3249, 99000, 153250, 171300, 376, 376, 254, 0.275, 430000,
   'SARS Rates of tax for individuals, 2027 tax year (1 March 2026 – 28 February 2027), Budget 2026; ' ||
   'SARS Medical tax credit rates; Budget Review 2026: s11F cap raised to R430 000 from 1 March 2026');

INSERT INTO payroll_tax_brackets (tax_year, from_amount, base_tax, rate) VALUES
  ('2025/26', 0, 0, 0.18),
  ('2025/26', 237100, 42678, 0.26),
  ('2025/26', 370500, 77362, 0.31),
  ('2025/26', 512800, 121475, 0.36),
  ('2025/26', 673000, 179147, 0.39),
  ('2025/26', 857900, 251258, 0.41),
  ('2025/26', 1817000, 644489, 0.45),
  ('2026/27', 0, 0, 0.18),
  ('2026/27', 245100, 44118, 0.26),
  ('2026/27', 383100, 79998, 0.31),
  ('2026/27', 530200, 125599, 0.36),
  ('2026/27', 695800, 185215, 0.39),
  ('2026/27', 887000, 259783, 0.41),
  ('2026/27', 1878600, 666339, 0.45);

INSERT INTO payroll_uif_rates (effective_from, employee_rate, employer_rate, monthly_ceiling, source) VALUES
  ('2021-06-01', 0.01, 0.01, 17712,
   'Unemployment Insurance Contributions Act s6; ceiling R17 712 a month from 1 June 2021 (GG 44536)');

INSERT INTO payroll_sdl_rates (effective_from, rate, exemption_threshold, source) VALUES
  ('2005-08-01', 0.01, 500000,
   'Skills Development Levies Act s3 (1%) and s4(b) (exempt at or below R500 000 a year, from 1 August 2005)');

INSERT INTO payroll_eti_rules (effective_from, effective_to, min_age, max_age, months, first_period_months,
    max_remuneration, minimum_wage, minimum_wage_hours, source) VALUES
  ('2022-03-01', '2025-03-31', 18, 29, 24, 12, 6500, 2000, 160,
   'Employment Tax Incentive Act s7 as amended from 1 March 2022 (R2 000 / R4 500 / R6 500)'),
  ('2025-04-01', '2029-02-28', 18, 29, 24, 12, 7500, 2500, 160,
   'Employment Tax Incentive Act s7 as amended from 1 April 2025 (Budget 2025: R2 500 / R5 500 / R7 500); s12: ends 28 February 2029');

INSERT INTO payroll_eti_bands (rules_from, period, from_amount, to_amount, kind, rate, amount) VALUES
  ('2022-03-01', 'first', 0, 2000, 'rate', 0.75, NULL),
  ('2022-03-01', 'first', 2000, 4500, 'fixed', NULL, 1500),
  ('2022-03-01', 'first', 4500, 6500, 'taper', 0.75, 1500),
  ('2022-03-01', 'second', 0, 2000, 'rate', 0.375, NULL),
  ('2022-03-01', 'second', 2000, 4500, 'fixed', NULL, 750),
  ('2022-03-01', 'second', 4500, 6500, 'taper', 0.375, 750),
  ('2025-04-01', 'first', 0, 2500, 'rate', 0.60, NULL),
  ('2025-04-01', 'first', 2500, 5500, 'fixed', NULL, 1500),
  ('2025-04-01', 'first', 5500, 7500, 'taper', 0.75, 1500),
  ('2025-04-01', 'second', 0, 2500, 'rate', 0.30, NULL),
  ('2025-04-01', 'second', 2500, 5500, 'fixed', NULL, 750),
  ('2025-04-01', 'second', 5500, 7500, 'taper', 0.375, 750);
