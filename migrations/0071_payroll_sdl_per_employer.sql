-- The SDL exemption judged per employer (issue 34, item 12). Skills Development Levies Act s4(b)
-- exempts an employer whose leviable amount over the following twelve months is not expected to
-- exceed R500 000: one company's remuneration across all its pay runs, not one run's annualised
-- (a company paying R420 000 monthly and R260 000 weekly pays R680 000). A calculation keeps what
-- it judged, so an auditor sees why a run was levied or not:
--   * sdl_expected: the leviable amount expected over twelve months, the greater of the company's
--     last twelve months paid (every run, this one in) and its employees' contracts for the next
--     twelve (pay-runs.sdl.ts);
--   * sdl_exempt: whether that was at most the threshold (payroll_sdl_rates.exemption_threshold).
-- Both null on a period calculated before this migration (judged per run then) or not yet calculated.
ALTER TABLE payroll_periods
  ADD COLUMN sdl_expected numeric(20, 2),
  ADD COLUMN sdl_exempt boolean;
