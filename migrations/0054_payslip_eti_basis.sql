-- The ETI basis of a payslip (issue 21): what the employment tax incentive was worked on, kept so
-- that a weekly or fortnightly run can work the ETI month to date (the ETI is a monthly figure:
-- Employment Tax Incentive Act s7; a run's month is the calendar month its period_end falls in,
-- as the EMP201 groups them). A weekly payslip's ETI = eti(the month's sums so far, this payslip's
-- included) − the ETI on the employee's earlier current payslips of that month
-- (pay-runs.eti.ts, pay-runs.calc.ts). Written for every payslip, monthly ones too:
--   * eti_remuneration: the regular cash remuneration (the bonus out);
--   * eti_wage: the wage for the ordinary hours (the basic), for the minimum-wage test;
--   * eti_hours: the hours employed and paid (hourly: the hours worked; salaried: the period's
--     contracted hours × the share of it employed).
-- Payslips calculated before this migration keep 0 (they claimed no weekly or fortnightly ETI).
-- numeric(20, 2) as the payslip's other amounts: a period's inputs go up to R999 999 999 999 each,
-- so their sum would overflow numeric(14, 2) (a 500 instead of a payslip).
ALTER TABLE payslips
  ADD COLUMN eti_remuneration numeric(20, 2) NOT NULL DEFAULT 0,
  ADD COLUMN eti_wage numeric(20, 2) NOT NULL DEFAULT 0,
  ADD COLUMN eti_hours numeric(20, 4) NOT NULL DEFAULT 0;
