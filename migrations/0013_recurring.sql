-- Recurring invoices: a schedule per customer that the job worker turns into one invoice per
-- period (run date).
--
--   * a schedule is never hard-deleted: DELETE sets deleted_at and its jobs then do nothing;
--   * next_date is the run date the next document is for; the schedule has ended when it is past
--     end_date; anchor_date is the day the series counts from (start_date, or a nextDate set by
--     hand), so a schedule on the 31st falls on the 30th, 28th or 29th in shorter months and goes
--     back to the 31st when the month has one;
--   * a period makes at most one document, whatever runs it how many times: the generated
--     document carries (recurring_id, recurring_period) under a unique index, inserted in the
--     transaction that also moves next_date on;
--   * the template lines are NUMERIC like the documents' own; replaced lines are retired.

CREATE TABLE recurring_invoices (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  -- what each run makes: invoices only for now (docs/decisions.md)
  document_type text NOT NULL DEFAULT 'invoice' CHECK (document_type IN ('invoice')),
  frequency text NOT NULL CHECK (frequency IN ('weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly')),
  -- every n weeks, fortnights, months, quarters or years
  interval_count integer NOT NULL DEFAULT 1 CHECK (interval_count BETWEEN 1 AND 24),
  start_date date NOT NULL,
  next_date date NOT NULL CHECK (next_date >= start_date),
  anchor_date date NOT NULL CHECK (anchor_date >= start_date),
  end_date date CHECK (end_date >= start_date),
  -- each document is due this many days after its issue date
  payment_terms_days integer NOT NULL CHECK (payment_terms_days BETWEEN 0 AND 3650),
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  reference text,
  terms text,
  notes text,
  template_id uuid,
  -- release (post to the ledger) each document as it is made; otherwise it stays a draft
  auto_release boolean NOT NULL DEFAULT false,
  -- e-mail each document as it is made (wired by the sending work; stored until then)
  auto_send boolean NOT NULL DEFAULT false,
  -- false: paused
  active boolean NOT NULL DEFAULT true,
  -- the last period a run handled, and what went wrong with it if anything did
  last_run_date date,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
);
CREATE INDEX recurring_invoices_list ON recurring_invoices (tenant_id, company_id, next_date, created_at, id)
  WHERE deleted_at IS NULL;
SELECT bp_tenant_table('recurring_invoices');

CREATE TABLE recurring_invoice_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  recurring_id uuid NOT NULL,
  line_no integer NOT NULL,
  description text NOT NULL,
  quantity numeric(18, 4) NOT NULL,
  unit_price numeric(18, 4) NOT NULL,
  discount_rate numeric(7, 4) CHECK (discount_rate BETWEEN 0 AND 100),
  -- the rate the line asks for; NULL: the standard rate on each document's issue date
  vat_rate numeric(6, 3) CHECK (vat_rate BETWEEN 0 AND 100),
  -- NULL: Sales
  account_id uuid,
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, recurring_id) REFERENCES recurring_invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
);
CREATE UNIQUE INDEX recurring_invoice_lines_live ON recurring_invoice_lines (tenant_id, recurring_id, line_no)
  WHERE retired_at IS NULL;
SELECT bp_tenant_table('recurring_invoice_lines');

-- The documents a schedule made: invoices.recurring_id (there since 0012) now names a schedule
-- of the same company, and recurring_period says which run made it.
ALTER TABLE invoices ADD COLUMN recurring_period date;
ALTER TABLE invoices ADD CONSTRAINT invoices_recurring_period_has_schedule
  CHECK (recurring_period IS NULL OR recurring_id IS NOT NULL);
ALTER TABLE invoices ADD CONSTRAINT invoices_recurring_fkey
  FOREIGN KEY (tenant_id, company_id, recurring_id) REFERENCES recurring_invoices (tenant_id, company_id, id);
CREATE UNIQUE INDEX invoices_recurring_period ON invoices (tenant_id, recurring_id, recurring_period)
  WHERE recurring_period IS NOT NULL;
