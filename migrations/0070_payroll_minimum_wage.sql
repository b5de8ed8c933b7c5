-- The ETI's wage test by the National Minimum Wage, and its part-time rule (issue 34, items 10,
-- 11 and 15).
--
-- Employment Tax Incentive Act 26 of 2013 s4(1)(a): no incentive for a month whose wage is below
-- the higher of a wage-regulating measure's minimum and the National Minimum Wage (NMW Act 9 of
-- 2018 s4(1), an amount for each ordinary hour worked). Only a wage bound by neither, or exempt
-- under NMW Act s15, is held to the ETI rules' fixed floor (payroll_eti_rules.minimum_wage, R2 500
-- for 160 hours, pro rata: s4(1)(b)). An incentive received where s4 fails is penalised at 100%
-- (s4(2)). So:
--   * payroll_minimum_wages: the NMW an ordinary hour, from the 1 March it took effect (a reference
--     table like 0052's, the law, read only). Sources (checked 2026-11-28):
--       2024-03-01 R27.58: Government Gazette 50073 of 2 February 2024 (NMW Act s6(5), Schedule 1);
--       2025-03-01 R28.79: Government Gazette 52053, GN 5830 of 4 February 2025;
--       2026-03-01 R30.23: Government Gazette 54075 of 3 February 2026.
--     The rate for workers on an expanded public works programme (R15.16 / R15.83 / R16.62) and
--     learnership allowances (Schedule 2) are not kept: such a wage is given to the employee as
--     minimum_hourly_wage below with minimum_wage_exempt, or left unclaimed.
--   * employees.minimum_wage_exempt: the NMW does not bind this wage (an exemption under s15, or a
--     worker outside the Act, s3): the ETI's fixed floor applies.
--   * employees.minimum_hourly_wage: the hourly minimum of a wage-regulating measure binding this
--     employee (a bargaining council agreement, a sectoral determination: ETI Act s4(3)); the
--     wage test takes the higher of it and the NMW.
--   * payslips.eti_ordinary_hours: the ordinary hours the wage pays (salaried: the contract's hours
--     × the share of the period employed, less unpaid leave; hourly: the hours worked), for the
--     wage test of a weekly or fortnightly month to date; eti_hours becomes every hour paid
--     (overtime in), for the 160-hour gross-up of s7(5). Earlier payslips take their eti_hours.
--   * payslips.eti_reason: why an ETI-eligible employee's payslip claims none (the rule named by
--     calc/eti.ts), null when it claims or the employee is not eligible.
--   * payslips.warnings and payroll_periods.warnings: what a payroll officer must see before
--     finalising ({code, detail}; the period's carry the employee): no income tax number, an ETI
--     refused below the minimum wage.

CREATE TABLE payroll_minimum_wages (
  effective_from date PRIMARY KEY,
  -- rand for each ordinary hour worked
  hourly numeric(8, 2) NOT NULL CHECK (hourly > 0),
  source text NOT NULL CHECK (btrim(source) <> '')
);
GRANT SELECT ON payroll_minimum_wages TO bp_app;

INSERT INTO payroll_minimum_wages (effective_from, hourly, source) VALUES
  ('2024-03-01', 27.58, 'National Minimum Wage Act s6(5), Schedule 1: Government Gazette 50073, 2 February 2024'),
  ('2025-03-01', 28.79, 'National Minimum Wage Act s6(5), Schedule 1: Government Gazette 52053, GN 5830, 4 February 2025'),
  ('2026-03-01', 30.23, 'National Minimum Wage Act s6(5), Schedule 1: Government Gazette 54075, 3 February 2026');

ALTER TABLE employees
  ADD COLUMN minimum_wage_exempt boolean NOT NULL DEFAULT false,
  ADD COLUMN minimum_hourly_wage numeric(12, 2) CHECK (minimum_hourly_wage > 0);

ALTER TABLE payslips
  ADD COLUMN eti_ordinary_hours numeric(20, 4) NOT NULL DEFAULT 0,
  ADD COLUMN eti_reason text CHECK (eti_reason IN (
    'no_rules', 'age', 'not_started', 'months_used', 'remuneration_too_high', 'below_minimum_wage')),
  ADD COLUMN warnings jsonb NOT NULL DEFAULT '[]';
UPDATE payslips SET eti_ordinary_hours = eti_hours;

ALTER TABLE payroll_periods ADD COLUMN warnings jsonb NOT NULL DEFAULT '[]';
