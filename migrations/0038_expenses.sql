-- Expense claims, their approvals, and mileage (issue 16).
--
-- A claim is what an employee (or the company card) paid: submitted on create →
-- partially_approved (one approval of two) → approved (posted: Dr expense net, Dr VAT input when
-- claimable, Cr employee reimbursements payable or the credit card) → reimbursed (a personal
-- claim paid out: Dr payable, Cr bank); rejected (with a reason). A mileage trip follows the
-- same steps, priced at the SARS rate per km of its date (or the tenant's lower rate), no VAT.
--   * approvals are kept on the claim (jsonb: who, which role, when): there are one or two;
--   * approval limits are per role (a built-in role's name or a custom role's id) per tenant;
--     the approval policy is one row per tenant (no row: the defaults in expenses.policy.ts);
--   * mileage_rates is a reference table (the same for every tenant): SARS's published rate per
--     km by the date it took effect (Income Tax Act s8(1)(b)(ii), the Minister's notice; SARS
--     PAYE-GEN-01-G03-A01). A year whose rate is not published here uses the last one known,
--     and the trip says which applied (rate_effective_from);
--   * cost_centre_id: its foreign key is added by 0041 (cost centres).
--
-- The chart gains (every company, existing and new; a code or key the company has already taken
-- is left alone):
--   2150 Employee reimbursements payable  liability / current_liability  employee_reimbursements
--   6660 Travel: local (mileage)          expense / expense              travel_local
-- The company card posts to 0022's 2410 Credit card (credit_card).
CREATE OR REPLACE FUNCTION bp_seed_company_accounts(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key, is_control)
    SELECT p_tenant, gen_random_uuid(), p_company, c.code, c.name, c.type, c.subtype, c.system_key, false
      FROM (VALUES
        ('1110', 'Allowance for credit losses', 'asset', 'receivable', 'credit_loss_allowance'),
        ('2110', 'VAT control (SARS)', 'liability', 'current_liability', 'vat_control'),
        ('2120', 'Income tax payable (SARS, provisional tax)', 'liability', 'current_liability', 'income_tax_payable'),
        ('2130', 'Dividends tax payable (SARS)', 'liability', 'current_liability', 'dividends_tax_payable'),
        ('2140', 'Dividends payable', 'liability', 'current_liability', 'dividends_payable'),
        ('2410', 'Credit card', 'liability', 'current_liability', 'credit_card'),
        ('2420', 'Income received in advance', 'liability', 'current_liability', 'income_in_advance'),
        ('2450', 'Current portion of long-term loans', 'liability', 'current_liability', 'loans_current_portion'),
        ('2510', 'Shareholder''s loan (director''s loan)', 'liability', 'non_current_liability', 'shareholder_loan'),
        ('2900', 'Suspense', 'liability', 'current_liability', 'suspense'),
        ('3300', 'Dividends declared', 'equity', 'equity', 'dividends_declared'),
        ('3400', 'Opening balances', 'equity', 'equity', 'opening_balances'),
        ('9000', 'Income tax expense', 'expense', 'income_tax', 'income_tax'),
        ('2150', 'Employee reimbursements payable', 'liability', 'current_liability', 'employee_reimbursements'),
        ('6660', 'Travel: local (mileage)', 'expense', 'expense', 'travel_local')
      ) AS c (code, name, type, subtype, system_key)
    ON CONFLICT DO NOTHING;
$$;
ALTER TABLE companies NO FORCE ROW LEVEL SECURITY;
ALTER TABLE accounts NO FORCE ROW LEVEL SECURITY;
SELECT bp_seed_company_accounts(tenant_id, id) FROM companies;
ALTER TABLE companies FORCE ROW LEVEL SECURITY;
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;

CREATE TABLE expense_claims (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid,
  account_id uuid NOT NULL,
  cost_centre_id uuid,
  description text NOT NULL CHECK (btrim(description) <> ''),
  vendor text,
  supplier_vat_number text,
  category text,
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL CHECK (status IN ('submitted', 'partially_approved', 'approved', 'reimbursed', 'rejected')),
  date date NOT NULL,
  paid_with text NOT NULL CHECK (paid_with IN ('company_card', 'personal')),
  tax_code text NOT NULL CHECK (tax_code IN ('standard', 'standard_capital', 'zero', 'exempt', 'out_of_scope')),
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  vat_amount numeric(18, 2) NOT NULL CHECK (vat_amount >= 0 AND vat_amount <= amount),
  vat_rate numeric(6, 3) NOT NULL,
  -- input tax is claimed (registered on the date, a standard-rated supply, a tax invoice held)
  vat_claimable boolean NOT NULL,
  vat_warning text,
  approvals jsonb NOT NULL DEFAULT '[]',
  created_by uuid,
  rejection_reason text,
  rejected_at timestamptz,
  approved_at timestamptz,
  entry_id uuid,
  reversal_entry_id uuid,
  reimbursed_at timestamptz,
  reimbursement_date date,
  reimbursement_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, reversal_entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, reimbursement_entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX expense_claims_list ON expense_claims (tenant_id, company_id, date DESC, created_at DESC, id)
  WHERE deleted_at IS NULL;
CREATE INDEX expense_claims_by_updated ON expense_claims (tenant_id, company_id, updated_at);
SELECT bp_tenant_table('expense_claims');
CREATE TRIGGER expense_claims_touch BEFORE UPDATE ON expense_claims
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- A claim's receipt: the image or PDF as uploaded (its type told by its bytes), one per claim.
CREATE TABLE expense_receipts (
  tenant_id uuid NOT NULL,
  claim_id uuid NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'application/pdf')),
  size_bytes integer NOT NULL,
  bytes bytea NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, claim_id),
  FOREIGN KEY (tenant_id, claim_id) REFERENCES expense_claims (tenant_id, id)
);
SELECT bp_tenant_table('expense_receipts');

CREATE TABLE expense_approval_limits (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  role_id text NOT NULL,
  max_amount numeric(18, 2) NOT NULL CHECK (max_amount >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- a PUT replaces the list: the rows it drops are marked, never removed
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX expense_approval_limits_role ON expense_approval_limits (tenant_id, role_id)
  WHERE deleted_at IS NULL;
SELECT bp_tenant_table('expense_approval_limits');

CREATE TABLE expense_approval_policies (
  tenant_id uuid NOT NULL,
  second_approval_from numeric(18, 2) NOT NULL CHECK (second_approval_from >= 0),
  approvers integer NOT NULL CHECK (approvers IN (1, 2)),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id)
);
SELECT bp_tenant_table('expense_approval_policies');

-- SARS's rate per km (the simplified method), by the date it took effect.
CREATE TABLE mileage_rates (
  effective_from date PRIMARY KEY,
  rate_per_km numeric(8, 2) NOT NULL CHECK (rate_per_km > 0),
  source text NOT NULL
);
GRANT SELECT ON mileage_rates TO bp_app;
INSERT INTO mileage_rates (effective_from, rate_per_km, source) VALUES
  ('2023-03-01', 4.64, 'SARS PAYE-GEN-01-G03-A01: prescribed rate per km from 1 March 2023 (Income Tax Act s8(1)(b)(ii))'),
  ('2024-03-01', 4.84, 'SARS PAYE-GEN-01-G03-A01: prescribed rate per km from 1 March 2024 (Income Tax Act s8(1)(b)(ii))'),
  ('2025-03-01', 4.76, 'SARS PAYE-GEN-01-G03-A01: prescribed rate per km from 1 March 2025 (Income Tax Act s8(1)(b)(ii))');

-- A tenant's own rate per km (at most SARS's), one row per tenant.
CREATE TABLE mileage_settings (
  tenant_id uuid NOT NULL,
  rate_per_km numeric(8, 2) CHECK (rate_per_km > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id)
);
SELECT bp_tenant_table('mileage_settings');

CREATE TABLE mileage_trips (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid,
  date date NOT NULL,
  km numeric(10, 1) NOT NULL CHECK (km > 0),
  purpose text NOT NULL CHECK (btrim(purpose) <> ''),
  from_place text,
  to_place text,
  vehicle text,
  rate_per_km numeric(8, 2) NOT NULL,
  rate_effective_from date,
  rate_source text NOT NULL CHECK (rate_source IN ('sars', 'tenant')),
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  status text NOT NULL CHECK (status IN ('submitted', 'partially_approved', 'approved', 'reimbursed', 'rejected')),
  approvals jsonb NOT NULL DEFAULT '[]',
  created_by uuid,
  rejection_reason text,
  rejected_at timestamptz,
  approved_at timestamptz,
  entry_id uuid,
  reimbursed_at timestamptz,
  reimbursement_date date,
  reimbursement_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, reimbursement_entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX mileage_trips_list ON mileage_trips (tenant_id, company_id, date DESC, created_at DESC, id)
  WHERE deleted_at IS NULL;
SELECT bp_tenant_table('mileage_trips');
CREATE TRIGGER mileage_trips_touch BEFORE UPDATE ON mileage_trips
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
