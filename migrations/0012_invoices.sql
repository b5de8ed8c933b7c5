-- Sales documents: the nine document types, their lines, payments, allocations of credit
-- notes and deposits, per-company settings and numbering.
--
--   * a document is never hard-deleted: a draft is marked deleted, a released one is voided
--     with a reversing journal entry (bp_app has no DELETE);
--   * numbers come from document_counters, one row per company and type, taken with the
--     row locked until commit: gap-free (a rolled-back create gives its number back) and
--     safe when two documents are created at once;
--   * amounts are NUMERIC; every line is rounded half-up to cents and totals are sums of
--     rounded lines.

CREATE TABLE invoice_settings (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  -- prefixes per document type, e.g. {"invoice": "INV-", "quote": "QUO-"}
  prefixes jsonb NOT NULL DEFAULT '{}',
  number_digits smallint NOT NULL DEFAULT 4 CHECK (number_digits BETWEEN 1 AND 10),
  default_payment_terms_days integer NOT NULL DEFAULT 30 CHECK (default_payment_terms_days BETWEEN 0 AND 3650),
  default_terms text,
  default_notes text,
  bank_name text,
  bank_account_name text,
  bank_account_number text,
  bank_branch_code text,
  bank_account_type text,
  default_template_id uuid,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, company_id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
SELECT bp_tenant_table('invoice_settings');

-- How a document looks on paper: logo, colours, footer.
CREATE TABLE invoice_templates (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  name text NOT NULL,
  primary_colour text NOT NULL DEFAULT '#1f4e79' CHECK (primary_colour ~ '^#[0-9a-fA-F]{6}$'),
  accent_colour text NOT NULL DEFAULT '#f2f2f2' CHECK (accent_colour ~ '^#[0-9a-fA-F]{6}$'),
  logo bytea,
  logo_content_type text CHECK (logo_content_type IN ('image/png', 'image/jpeg')),
  footer text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
SELECT bp_tenant_table('invoice_templates');

CREATE TABLE document_counters (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  document_type text NOT NULL,
  next_number bigint NOT NULL DEFAULT 1 CHECK (next_number >= 1),
  PRIMARY KEY (tenant_id, company_id, document_type),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
SELECT bp_tenant_table('document_counters');

CREATE TABLE invoices (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  document_type text NOT NULL CHECK (document_type IN (
    'invoice', 'quote', 'pro_forma', 'sales_order', 'delivery_note', 'credit_note', 'debit_note', 'cash_sale', 'deposit')),
  number text NOT NULL,
  -- stored status; "overdue" is derived from due_date when reading
  status text NOT NULL CHECK (status IN (
    'draft', 'open', 'partially_paid', 'paid', 'void', 'accepted', 'declined', 'converted')),
  contact_id uuid NOT NULL,
  issue_date date NOT NULL,
  due_date date NOT NULL CHECK (due_date >= issue_date),
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  payment_terms_days integer CHECK (payment_terms_days BETWEEN 0 AND 3650),
  terms text,
  reference text,
  notes text,
  -- VAT registered on the issue date (decides "Tax Invoice" and whether VAT is charged)
  vat_registered boolean NOT NULL,
  subtotal numeric(18, 2) NOT NULL,
  discount_total numeric(18, 2) NOT NULL,
  vat_total numeric(18, 2) NOT NULL,
  total numeric(18, 2) NOT NULL,
  -- a credit note may name the invoice it credits; a converted document its source
  credited_invoice_id uuid,
  converted_from_id uuid,
  recurring_id uuid,
  template_id uuid,
  -- the journal entry its release posted, and the reversal its void posted
  entry_id uuid,
  void_entry_id uuid,
  released_at timestamptz,
  voided_at timestamptz,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, void_entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, credited_invoice_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, converted_from_id) REFERENCES invoices (tenant_id, id)
);
CREATE UNIQUE INDEX invoices_number ON invoices (tenant_id, company_id, document_type, number);
CREATE INDEX invoices_list ON invoices (tenant_id, company_id, issue_date DESC, created_at DESC, id)
  WHERE deleted_at IS NULL;
CREATE INDEX invoices_by_contact ON invoices (tenant_id, contact_id, issue_date DESC) WHERE deleted_at IS NULL;
CREATE INDEX invoices_by_status ON invoices (tenant_id, company_id, status, due_date) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('invoices');

CREATE TABLE invoice_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  invoice_id uuid NOT NULL,
  line_no integer NOT NULL,
  description text NOT NULL,
  quantity numeric(18, 4) NOT NULL,
  unit_price numeric(18, 4) NOT NULL,
  -- percent, 0 to 100
  discount_rate numeric(7, 4) NOT NULL DEFAULT 0 CHECK (discount_rate BETWEEN 0 AND 100),
  -- the rate applied (0 when the company is not VAT-registered on the issue date)
  vat_rate numeric(6, 3) NOT NULL CHECK (vat_rate BETWEEN 0 AND 100),
  -- the rate the line asked for, if it named one
  requested_vat_rate numeric(6, 3),
  account_id uuid NOT NULL,
  net_amount numeric(18, 2) NOT NULL,
  discount_amount numeric(18, 2) NOT NULL,
  vat_amount numeric(18, 2) NOT NULL,
  total_amount numeric(18, 2) NOT NULL,
  -- a draft's lines replaced by an edit are retired, not deleted
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
);
CREATE UNIQUE INDEX invoice_lines_live ON invoice_lines (tenant_id, invoice_id, line_no) WHERE retired_at IS NULL;
SELECT bp_tenant_table('invoice_lines');

-- Money received against an invoice (typed in, bank-matched or online). A reversed payment
-- stays, with the entry that reversed it.
CREATE TABLE invoice_payments (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  invoice_id uuid NOT NULL,
  company_id uuid NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  date date NOT NULL,
  method text,
  reference text,
  bank_account_id uuid NOT NULL,
  entry_id uuid NOT NULL,
  reversed_at timestamptz,
  reversal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, reversal_entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX invoice_payments_by_invoice ON invoice_payments (tenant_id, invoice_id, date);
SELECT bp_tenant_table('invoice_payments');

-- A credit note or a deposit applied to an invoice: moves the amount between open items.
CREATE TABLE invoice_allocations (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  -- the credit note or deposit
  source_id uuid NOT NULL,
  source_type text NOT NULL CHECK (source_type IN ('credit_note', 'deposit')),
  -- the invoice it settles
  invoice_id uuid NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  date date NOT NULL,
  entry_id uuid NOT NULL,
  reversed_at timestamptz,
  reversal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, source_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX invoice_allocations_by_invoice ON invoice_allocations (tenant_id, invoice_id);
CREATE INDEX invoice_allocations_by_source ON invoice_allocations (tenant_id, source_id);
-- A deposit is applied whole, once: a second application is refused by the database too.
CREATE UNIQUE INDEX invoice_allocations_deposit_once ON invoice_allocations (tenant_id, source_id)
  WHERE source_type = 'deposit' AND reversed_at IS NULL;
SELECT bp_tenant_table('invoice_allocations');
