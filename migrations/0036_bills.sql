-- Supplier bills (issue 16): the purchase side of the books. A bill is the supplier's tax
-- invoice as received: draft → awaiting_approval → approved (posted: Dr expense or asset per
-- line, Dr VAT input, Cr creditors control with the bill as the supplier's open item) →
-- partially_paid / paid; rejected (with a reason); void (the approval's entry reversed).
--   * the same supplier's bill number twice is refused by a unique index on the trimmed,
--     lower-cased number (not counting void or deleted bills), so two creates at once cannot
--     both succeed;
--   * cost_centre_id (bill and line) is stored without a foreign key: cost centres are built
--     elsewhere and wired after the merge; purchase_order_id/number likewise;
--   * the recurring fields are the spec's (recurring, frequency, next_date, end_date,
--     recurrence_active): a recurring bill is its own template; the job worker makes a bill from
--     it on each run date (recurring_from_id and recurring_period name the template and the run:
--     one bill per run, whatever races), anchored on recurrence_anchor (the first run date).
CREATE TABLE bills (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  bill_number text NOT NULL CHECK (btrim(bill_number) <> ''),
  status text NOT NULL CHECK (status IN (
    'draft', 'awaiting_approval', 'approved', 'partially_paid', 'paid', 'rejected', 'void')),
  issue_date date NOT NULL,
  due_date date NOT NULL CHECK (due_date >= issue_date),
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  reference text,
  notes text,
  category text,
  -- the supplier's VAT number the input tax is claimed on (the bill's, else the contact's)
  supplier_vat_number text,
  -- why the input VAT claim may not stand (an abridged tax invoice without the VAT number)
  vat_warning text,
  vat_registered boolean NOT NULL,
  subtotal numeric(18, 2) NOT NULL,
  vat_total numeric(18, 2) NOT NULL,
  total numeric(18, 2) NOT NULL CHECK (total >= 0),
  cost_centre_id uuid,
  purchase_order_id uuid,
  purchase_order_number text,
  recurring boolean NOT NULL DEFAULT false,
  frequency text CHECK (frequency IN ('weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly')),
  next_date date,
  end_date date,
  recurrence_active boolean NOT NULL DEFAULT false,
  recurrence_anchor date,
  recurrence_error text,
  recurring_from_id uuid,
  recurring_period date,
  rejection_reason text,
  entry_id uuid,
  void_entry_id uuid,
  submitted_at timestamptz,
  approved_at timestamptz,
  approved_by uuid,
  rejected_at timestamptz,
  paid_at timestamptz,
  voided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, void_entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, recurring_from_id) REFERENCES bills (tenant_id, id),
  CHECK (NOT recurring OR (frequency IS NOT NULL AND next_date IS NOT NULL AND recurrence_anchor IS NOT NULL))
);
CREATE UNIQUE INDEX bills_one_per_run ON bills (tenant_id, recurring_from_id, recurring_period)
  WHERE recurring_from_id IS NOT NULL;
CREATE UNIQUE INDEX bills_supplier_number ON bills (tenant_id, company_id, contact_id, lower(btrim(bill_number)))
  WHERE deleted_at IS NULL AND status <> 'void';
CREATE INDEX bills_list ON bills (tenant_id, company_id, issue_date DESC, created_at DESC, id)
  WHERE deleted_at IS NULL;
CREATE INDEX bills_by_status ON bills (tenant_id, company_id, status, due_date) WHERE deleted_at IS NULL;
CREATE INDEX bills_by_updated ON bills (tenant_id, company_id, updated_at);
SELECT bp_tenant_table('bills');
CREATE TRIGGER bills_touch BEFORE UPDATE ON bills FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE bill_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  bill_id uuid NOT NULL,
  line_no integer NOT NULL,
  description text NOT NULL,
  quantity numeric(18, 4) NOT NULL,
  unit_price numeric(18, 4) NOT NULL,
  tax_code text NOT NULL CHECK (tax_code IN ('standard', 'standard_capital', 'zero', 'exempt', 'out_of_scope')),
  vat_rate numeric(6, 3) NOT NULL CHECK (vat_rate BETWEEN 0 AND 100),
  account_id uuid NOT NULL,
  cost_centre_id uuid,
  product_id uuid,
  net_amount numeric(18, 2) NOT NULL,
  vat_amount numeric(18, 2) NOT NULL,
  total_amount numeric(18, 2) NOT NULL,
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, bill_id) REFERENCES bills (tenant_id, id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
);
CREATE UNIQUE INDEX bill_lines_live ON bill_lines (tenant_id, bill_id, line_no) WHERE retired_at IS NULL;
SELECT bp_tenant_table('bill_lines');

-- Money paid to the supplier against a bill: Dr creditors control (the bill's open item), Cr bank.
CREATE TABLE bill_payments (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  bill_id uuid NOT NULL,
  company_id uuid NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  date date NOT NULL,
  reference text,
  bank_account_id uuid NOT NULL,
  entry_id uuid NOT NULL,
  reversed_at timestamptz,
  reversal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, bill_id) REFERENCES bills (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, reversal_entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX bill_payments_by_bill ON bill_payments (tenant_id, bill_id, date);
SELECT bp_tenant_table('bill_payments');
CREATE TRIGGER bill_payments_touch BEFORE UPDATE ON bill_payments
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
