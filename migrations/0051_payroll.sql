-- Payroll, first part (issue 21): employees and leave. Payroll is company-scoped (the spec's
-- "Company-scoped routes (documents, banking, payroll, ledger)"): an employee is employed by one
-- company, and is linked to an EMPLOYEE contact of the tenant (the name, e-mail and addresses
-- live there, as for customers and suppliers).
--
--   * employees: identity (a South African ID number, checksum-validated in code, or a passport),
--     date of birth (the rebates go by age at the end of the tax year), SARS tax number, the
--     employment dates, how and how much they are paid, the working week (leave accrual and the
--     ETI's minimum wage go by it), the bank account (sealed with SECRETS_KEY: only the sealed
--     text and its last four digits are kept), medical scheme and retirement fund contributions,
--     UIF, SDL and ETI applicability.
--   * leave_requests: annual, sick, family responsibility, parental and unpaid leave, in working
--     days, pending until someone with payroll:approve decides; unpaid leave reduces the pay of
--     the period it falls in.
--   * leave_adjustments: balances brought in from an earlier system, or corrected, per type and
--     date (an accrual is re-derived from the employment dates, never stored).
-- Nothing is hard-deleted: deleted_at where a record can be removed.

CREATE TABLE employees (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  -- the business's own number for the employee (payslips and the IRP5 show it)
  employee_number text NOT NULL CHECK (btrim(employee_number) <> ''),
  first_name text NOT NULL CHECK (btrim(first_name) <> ''),
  last_name text NOT NULL CHECK (btrim(last_name) <> ''),
  -- one of: a 13-digit South African ID number, or a passport with its issuing country
  id_number text CHECK (id_number ~ '^[0-9]{13}$'),
  passport_number text CHECK (passport_number IS NULL OR btrim(passport_number) <> ''),
  passport_country text CHECK (passport_country ~ '^[A-Z]{2}$'),
  date_of_birth date NOT NULL,
  tax_number text CHECK (tax_number ~ '^[0-9]{10}$'),
  start_date date NOT NULL,
  end_date date CHECK (end_date IS NULL OR end_date >= start_date),
  termination_reason text,
  pay_frequency text NOT NULL CHECK (pay_frequency IN ('monthly', 'fortnightly', 'weekly')),
  -- salary: `rate` is the pay for a full period; hourly: `rate` is the pay for an hour
  pay_basis text NOT NULL CHECK (pay_basis IN ('salary', 'hourly')),
  rate numeric(20, 2) NOT NULL CHECK (rate >= 0),
  hours_per_week numeric(6, 2) NOT NULL DEFAULT 40 CHECK (hours_per_week > 0 AND hours_per_week <= 168),
  days_per_week numeric(3, 1) NOT NULL DEFAULT 5 CHECK (days_per_week > 0 AND days_per_week <= 7),
  -- the bank account pay goes to: sealed (src/platform/secrets), the last four digits shown
  bank_name text,
  bank_branch_code text CHECK (bank_branch_code ~ '^[0-9]{6}$'),
  bank_account_type text CHECK (bank_account_type IN ('cheque', 'savings', 'transmission')),
  bank_account_holder text,
  bank_account_sealed text,
  bank_account_last4 text CHECK (bank_account_last4 ~ '^[0-9]{1,4}$'),
  -- medical scheme: members covered besides the employee (for the tax credit), and the monthly
  -- contributions paid by the employee (deducted) and the employer (a fringe benefit)
  medical_scheme boolean NOT NULL DEFAULT false,
  medical_dependants integer NOT NULL DEFAULT 0 CHECK (medical_dependants >= 0),
  medical_employee_contribution numeric(20, 2) NOT NULL DEFAULT 0 CHECK (medical_employee_contribution >= 0),
  medical_employer_contribution numeric(20, 2) NOT NULL DEFAULT 0 CHECK (medical_employer_contribution >= 0),
  -- retirement fund: contributions a period, the employee's (deductible within the cap) and the
  -- employer's (a fringe benefit that is also deemed the employee's contribution)
  retirement_employee_contribution numeric(20, 2) NOT NULL DEFAULT 0 CHECK (retirement_employee_contribution >= 0),
  retirement_employer_contribution numeric(20, 2) NOT NULL DEFAULT 0 CHECK (retirement_employer_contribution >= 0),
  uif_applies boolean NOT NULL DEFAULT true,
  sdl_applies boolean NOT NULL DEFAULT true,
  eti_eligible boolean NOT NULL DEFAULT false,
  -- the date the ETI's 24 months are counted from (the start date unless told otherwise)
  eti_start_date date,
  client_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  CHECK (id_number IS NOT NULL OR (passport_number IS NOT NULL AND passport_country IS NOT NULL)),
  CHECK ((bank_account_sealed IS NULL) = (bank_account_last4 IS NULL))
);
CREATE UNIQUE INDEX employees_number ON employees (tenant_id, company_id, lower(btrim(employee_number)))
  WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX employees_id_number ON employees (tenant_id, company_id, id_number)
  WHERE deleted_at IS NULL AND id_number IS NOT NULL;
CREATE UNIQUE INDEX employees_client_id ON employees (tenant_id, company_id, client_id)
  WHERE client_id IS NOT NULL;
CREATE INDEX employees_list ON employees (tenant_id, company_id, last_name, first_name, id)
  WHERE deleted_at IS NULL;
CREATE INDEX employees_updated ON employees (tenant_id, company_id, updated_at, id);
SELECT bp_tenant_table('employees');
CREATE TRIGGER employees_touch BEFORE UPDATE ON employees
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE leave_requests (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  employee_id uuid NOT NULL,
  leave_type text NOT NULL
    CHECK (leave_type IN ('annual', 'sick', 'family_responsibility', 'parental', 'unpaid')),
  starts_on date NOT NULL,
  ends_on date NOT NULL CHECK (ends_on >= starts_on),
  -- working days taken (half days allowed), worked out from the dates and the working week
  days numeric(6, 1) NOT NULL CHECK (days > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
  reason text,
  decided_by uuid,
  decided_at timestamptz,
  decision_note text,
  client_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, employee_id) REFERENCES employees (tenant_id, company_id, id)
);
CREATE INDEX leave_requests_by_employee ON leave_requests (tenant_id, employee_id, starts_on)
  WHERE deleted_at IS NULL;
CREATE INDEX leave_requests_list ON leave_requests (tenant_id, company_id, starts_on DESC, id)
  WHERE deleted_at IS NULL;
CREATE INDEX leave_requests_updated ON leave_requests (tenant_id, company_id, updated_at, id);
CREATE UNIQUE INDEX leave_requests_client_id ON leave_requests (tenant_id, company_id, client_id)
  WHERE client_id IS NOT NULL;
SELECT bp_tenant_table('leave_requests');
CREATE TRIGGER leave_requests_touch BEFORE UPDATE ON leave_requests
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE leave_adjustments (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  employee_id uuid NOT NULL,
  leave_type text NOT NULL
    CHECK (leave_type IN ('annual', 'sick', 'family_responsibility', 'parental', 'unpaid')),
  effective_on date NOT NULL,
  -- days added to (positive) or taken from (negative) the balance
  days numeric(6, 1) NOT NULL CHECK (days <> 0),
  reason text NOT NULL CHECK (btrim(reason) <> ''),
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, employee_id) REFERENCES employees (tenant_id, company_id, id)
);
CREATE INDEX leave_adjustments_by_employee ON leave_adjustments (tenant_id, employee_id, effective_on);
SELECT bp_tenant_table('leave_adjustments');
