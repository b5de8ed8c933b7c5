-- Payroll, second part (issue 21): pay periods and payslips.
--
--   * payroll_periods: one pay run of a company for one frequency (monthly, fortnightly, weekly),
--     open → calculated → finalised (locked: its payslips never change again; a correction goes in
--     the next period) → paid. The totals are the sums of its payslips, kept on the period so a
--     list, the EMP201 figures and the payroll.run.paid event read them without the payslips.
--     Finalising posts one entry (entry_id); paying posts the net pay out of the bank
--     (payment_entry_id). Periods of one frequency never overlap (checked in code, under a lock).
--   * payslip_inputs: what varies from period to period per employee (overtime hours, commission,
--     bonus, allowances, other deductions), editable while the period is open or calculated.
--   * payslips: one per employee paid in the period, replaced whole by each calculation until the
--     period is finalised; payslip_lines: its earnings, deductions, employer contributions and
--     the ETI, each with its IRP5 source code.
--   * The chart gains 2340 Retirement fund payable, 2350 Medical aid payable, 2360 Payroll
--     deductions payable and 4910 Employment tax incentive, for every company (with 2330).
-- Nothing is hard-deleted.

CREATE TABLE payroll_periods (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  frequency text NOT NULL CHECK (frequency IN ('monthly', 'fortnightly', 'weekly')),
  period_start date NOT NULL,
  period_end date NOT NULL,
  pay_date date NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'calculated', 'finalised', 'paid')),
  employee_count integer NOT NULL DEFAULT 0,
  gross numeric(20, 2) NOT NULL DEFAULT 0,
  paye numeric(20, 2) NOT NULL DEFAULT 0,
  uif_employee numeric(20, 2) NOT NULL DEFAULT 0,
  uif_employer numeric(20, 2) NOT NULL DEFAULT 0,
  sdl numeric(20, 2) NOT NULL DEFAULT 0,
  eti numeric(20, 2) NOT NULL DEFAULT 0,
  retirement_employee numeric(20, 2) NOT NULL DEFAULT 0,
  retirement_employer numeric(20, 2) NOT NULL DEFAULT 0,
  medical_employee numeric(20, 2) NOT NULL DEFAULT 0,
  medical_employer numeric(20, 2) NOT NULL DEFAULT 0,
  other_deductions numeric(20, 2) NOT NULL DEFAULT 0,
  net numeric(20, 2) NOT NULL DEFAULT 0,
  entry_id uuid,
  payment_entry_id uuid,
  bank_account_id uuid,
  calculated_at timestamptz,
  finalised_at timestamptz,
  finalised_by uuid,
  paid_at timestamptz,
  paid_by uuid,
  client_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  -- entry_id / payment_entry_id stay null only for a run of no pay (nothing to post)
  CHECK (period_end >= period_start)
);
CREATE UNIQUE INDEX payroll_periods_start ON payroll_periods (tenant_id, company_id, frequency, period_start);
CREATE INDEX payroll_periods_end ON payroll_periods (tenant_id, company_id, period_end);
SELECT bp_tenant_table('payroll_periods');
CREATE TRIGGER payroll_periods_touch BEFORE UPDATE ON payroll_periods
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE payslip_inputs (
  tenant_id uuid NOT NULL,
  period_id uuid NOT NULL,
  employee_id uuid NOT NULL,
  company_id uuid NOT NULL,
  -- hours worked by an hourly employee in the period (null: the contracted hours)
  ordinary_hours numeric(10, 2) CHECK (ordinary_hours >= 0),
  overtime_hours numeric(10, 2) NOT NULL DEFAULT 0 CHECK (overtime_hours >= 0),
  commission numeric(20, 2) NOT NULL DEFAULT 0 CHECK (commission >= 0),
  bonus numeric(20, 2) NOT NULL DEFAULT 0 CHECK (bonus >= 0),
  travel_allowance numeric(20, 2) NOT NULL DEFAULT 0 CHECK (travel_allowance >= 0),
  other_allowances numeric(20, 2) NOT NULL DEFAULT 0 CHECK (other_allowances >= 0),
  other_deductions numeric(20, 2) NOT NULL DEFAULT 0 CHECK (other_deductions >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, period_id, employee_id),
  FOREIGN KEY (tenant_id, company_id, period_id) REFERENCES payroll_periods (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, employee_id) REFERENCES employees (tenant_id, company_id, id)
);
SELECT bp_tenant_table('payslip_inputs');
CREATE TRIGGER payslip_inputs_touch BEFORE UPDATE ON payslip_inputs
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE payslips (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  period_id uuid NOT NULL,
  employee_id uuid NOT NULL,
  -- the PAYE tax year the payslip is taxed in ('2027' for 2026/27)
  tax_year text NOT NULL,
  -- the share of the period employed, (0, 1]
  period_fraction numeric(12, 10) NOT NULL,
  days_worked integer NOT NULL,
  unpaid_days numeric(6, 2) NOT NULL DEFAULT 0,
  gross numeric(20, 2) NOT NULL,
  taxable numeric(20, 2) NOT NULL,
  paye numeric(20, 2) NOT NULL,
  uif_employee numeric(20, 2) NOT NULL,
  uif_employer numeric(20, 2) NOT NULL,
  sdl numeric(20, 2) NOT NULL,
  eti numeric(20, 2) NOT NULL,
  retirement_employee numeric(20, 2) NOT NULL,
  retirement_employer numeric(20, 2) NOT NULL,
  medical_employee numeric(20, 2) NOT NULL,
  medical_employer numeric(20, 2) NOT NULL,
  other_deductions numeric(20, 2) NOT NULL,
  net numeric(20, 2) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- a recalculation retires the earlier payslips (never deleted)
  replaced_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, period_id) REFERENCES payroll_periods (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, employee_id) REFERENCES employees (tenant_id, company_id, id)
);
CREATE UNIQUE INDEX payslips_period_employee ON payslips (tenant_id, period_id, employee_id)
  WHERE replaced_at IS NULL;
CREATE INDEX payslips_employee ON payslips (tenant_id, employee_id);
SELECT bp_tenant_table('payslips');
CREATE TRIGGER payslips_touch BEFORE UPDATE ON payslips
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE payslip_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  payslip_id uuid NOT NULL,
  position integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('earning', 'fringe_benefit', 'deduction', 'employer', 'eti')),
  -- null: a line with no IRP5 source code (an other deduction, the ETI claimed)
  irp5_code text CHECK (irp5_code ~ '^[0-9]{4}$'),
  description text NOT NULL,
  quantity numeric(20, 4),
  rate numeric(20, 4),
  amount numeric(20, 2) NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, payslip_id) REFERENCES payslips (tenant_id, id)
);
CREATE UNIQUE INDEX payslip_lines_position ON payslip_lines (tenant_id, payslip_id, position);
SELECT bp_tenant_table('payslip_lines');

-- 2340, 2350, 2360 and 4910, once per company: with its salaries payable account --------------
CREATE FUNCTION bp_seed_payroll_accounts(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key, is_control)
    SELECT p_tenant, gen_random_uuid(), p_company,
           CASE WHEN EXISTS (SELECT 1 FROM accounts c
                              WHERE c.tenant_id = p_tenant AND c.company_id = p_company AND lower(c.code) = s.code)
                THEN s.code || '.1' ELSE s.code END,
           s.name, s.type, s.subtype, s.system_key, s.is_control
      FROM (VALUES
        ('2340', 'Retirement fund payable', 'liability', 'current_liability', 'retirement_payable', false),
        ('2350', 'Medical aid payable', 'liability', 'current_liability', 'medical_aid_payable', false),
        ('2360', 'Payroll deductions payable', 'liability', 'current_liability', 'payroll_deductions_payable', false),
        ('4910', 'Employment tax incentive', 'income', 'other_income', 'eti_income', false)
      ) AS s (code, name, type, subtype, system_key, is_control)
     WHERE NOT EXISTS (SELECT 1 FROM accounts a
                        WHERE a.tenant_id = p_tenant AND a.company_id = p_company
                          AND a.system_key = s.system_key);
$$;

CREATE FUNCTION bp_payroll_accounts_follow() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bp_seed_payroll_accounts(NEW.tenant_id, NEW.company_id);
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_payroll_accounts AFTER INSERT ON accounts
  FOR EACH ROW WHEN (NEW.system_key = 'salaries_payable') EXECUTE FUNCTION bp_payroll_accounts_follow();

ALTER TABLE accounts NO FORCE ROW LEVEL SECURITY;
SELECT bp_seed_payroll_accounts(tenant_id, company_id) FROM accounts WHERE system_key = 'salaries_payable';
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;
