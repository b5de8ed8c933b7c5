-- Reconciliation (issue 17): a bank line matched to what the books hold for it.
--
--   * bank_matches: one per bank line reconciled. A line has at most one live match (undone
--     matches stay, with undone_at and undone_by, for the record). kind says how it was matched:
--     invoice and bill payments recorded by the match, an existing entry only linked, an entry
--     created against an account (create) or another bank account (transfer).
--   * bank_match_items: what the match recorded or linked, one row each: the journal entry that
--     moved this bank account (always), and the invoice payment, bill payment or customer credit
--     behind it. An entry's line on a bank account is claimed by at most one live match
--     ("matched, never recorded again"): a unique index, not only a check in code. A transfer's
--     entry touches two bank accounts, so each side's bank line may claim it once.
CREATE TABLE bank_matches (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  bank_account_id uuid NOT NULL,
  bank_transaction_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('invoice', 'bill', 'existing', 'create', 'transfer', 'mixed')),
  amount numeric(20, 2) NOT NULL,
  -- who matched: a user, an API key, or the system (auto-reconcile after an import)
  created_by_type text NOT NULL CHECK (created_by_type IN ('user', 'api_key', 'system')),
  created_by uuid,
  auto boolean NOT NULL DEFAULT false,
  undone_at timestamptz,
  undone_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_transaction_id)
    REFERENCES bank_transactions (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES bank_accounts (tenant_id, company_id, id)
);
-- A bank line is matched once at a time.
CREATE UNIQUE INDEX bank_matches_live ON bank_matches (tenant_id, bank_transaction_id) WHERE undone_at IS NULL;
SELECT bp_tenant_table('bank_matches');
CREATE TRIGGER bank_matches_touch BEFORE UPDATE ON bank_matches
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE bank_match_items (
  tenant_id uuid NOT NULL,
  match_id uuid NOT NULL,
  line_no integer NOT NULL CHECK (line_no >= 1),
  company_id uuid NOT NULL,
  -- the bank account whose movement in the entry this item claims (the match's)
  bank_account_id uuid NOT NULL,
  journal_entry_id uuid NOT NULL,
  invoice_payment_id uuid,
  bill_payment_id uuid,
  customer_credit_id uuid,
  -- the entry's movement on the bank account (signed like the bank line: + in, - out)
  amount numeric(20, 2) NOT NULL,
  -- copied from the match when it is undone, so the index below sees only live claims
  undone_at timestamptz,
  PRIMARY KEY (tenant_id, match_id, line_no),
  FOREIGN KEY (tenant_id, company_id, match_id) REFERENCES bank_matches (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, journal_entry_id) REFERENCES journal_entries (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_payment_id) REFERENCES invoice_payments (tenant_id, id),
  FOREIGN KEY (tenant_id, bill_payment_id) REFERENCES bill_payments (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_credit_id) REFERENCES customer_credits (tenant_id, id)
);
-- "Never recorded again": an entry's movement on a bank account is claimed by one live match.
CREATE UNIQUE INDEX bank_match_items_claim ON bank_match_items (tenant_id, journal_entry_id, bank_account_id)
  WHERE undone_at IS NULL;
SELECT bp_tenant_table('bank_match_items');

-- Suggestions load the open invoices and bills of a company once per page (their due is the open item's balance).
CREATE INDEX IF NOT EXISTS invoices_open_for_matching ON invoices (tenant_id, company_id, contact_id)
  WHERE status IN ('open', 'partially_paid');
CREATE INDEX IF NOT EXISTS bills_open_for_matching ON bills (tenant_id, company_id, contact_id)
  WHERE status IN ('approved', 'partially_paid');
-- A document number named in a bank line, found by its key (no separators, upper case).
CREATE INDEX IF NOT EXISTS invoices_number_key ON invoices
  (tenant_id, company_id, upper(regexp_replace(number, '[^A-Za-z0-9]', '', 'g')));
CREATE INDEX IF NOT EXISTS bills_number_key ON bills
  (tenant_id, company_id, upper(regexp_replace(bill_number, '[^A-Za-z0-9]', '', 'g')));
