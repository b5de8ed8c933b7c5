-- Supplier bank details, hold and dispute on bills, and the payment run (issue 16).
--   * contact_bank_details: a supplier's bank account, one per contact (contacts are one book
--     per tenant). The account number is sealed (src/platform/secrets: AES-256-GCM under
--     SECRETS_KEY, the key id inside the value); account_last4 is kept apart so that answers
--     mask it (••••1234) without opening anything. changed_* and confirmed_* carry the fraud
--     control: a change is not paid by a payment run until someone else confirms it.
--   * contact_bank_detail_changes: every change kept (who, when, masked old and new numbers);
--     nothing is overwritten there.
--   * bills gain on_hold/hold_reason and disputed/dispute_reason: neither a payment run nor a
--     single payment pays such a bill.
--   * bill_payment_runs: a run pays several bills at once, one payment each (bill_payments,
--     payment_run_id set) under ONE journal entry (Dr creditors per bill, Cr bank the total).
--     bill_payment_run_items keeps what the bank file needs as it was when the run was made
--     (the payee and the sealed account number), so the file stays what was paid even if the
--     supplier's details change later.
CREATE TABLE contact_bank_details (
  tenant_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  bank_name text NOT NULL CHECK (btrim(bank_name) <> ''),
  account_holder text NOT NULL CHECK (btrim(account_holder) <> ''),
  account_number_sealed text NOT NULL,
  account_last4 text NOT NULL CHECK (account_last4 ~ '^[0-9]{1,4}$'),
  branch_code text NOT NULL CHECK (branch_code ~ '^[0-9]{6}$'),
  account_type text NOT NULL CHECK (account_type IN ('cheque', 'savings', 'transmission')),
  changed_at timestamptz NOT NULL,
  changed_by uuid,
  changed_by_name text NOT NULL,
  confirmed_at timestamptz,
  confirmed_by uuid,
  confirmed_by_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, contact_id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
);
SELECT bp_tenant_table('contact_bank_details');
CREATE TRIGGER contact_bank_details_touch BEFORE UPDATE ON contact_bank_details
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE contact_bank_detail_changes (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  contact_id uuid NOT NULL,
  changed_at timestamptz NOT NULL,
  changed_by uuid,
  changed_by_name text NOT NULL,
  old_account_masked text,
  new_account_masked text NOT NULL,
  bank_name text NOT NULL,
  branch_code text NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
);
CREATE INDEX contact_bank_detail_changes_by_contact
  ON contact_bank_detail_changes (tenant_id, contact_id, changed_at DESC);
SELECT bp_tenant_table('contact_bank_detail_changes');

ALTER TABLE bills ADD COLUMN on_hold boolean NOT NULL DEFAULT false;
ALTER TABLE bills ADD COLUMN hold_reason text;
ALTER TABLE bills ADD COLUMN disputed boolean NOT NULL DEFAULT false;
ALTER TABLE bills ADD COLUMN dispute_reason text;

CREATE TABLE bill_payment_runs (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  date date NOT NULL,
  bank_account_id uuid NOT NULL,
  bank_profile text NOT NULL CHECK (bank_profile IN ('generic', 'fnb', 'absa', 'standard_bank', 'nedbank')),
  total numeric(18, 2) NOT NULL CHECK (total > 0),
  bill_count integer NOT NULL CHECK (bill_count > 0),
  entry_id uuid NOT NULL,
  created_by uuid,
  created_by_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id)
);
SELECT bp_tenant_table('bill_payment_runs');

ALTER TABLE bill_payments ADD COLUMN payment_run_id uuid;
ALTER TABLE bill_payments ADD CONSTRAINT bill_payments_run_fk
  FOREIGN KEY (tenant_id, payment_run_id) REFERENCES bill_payment_runs (tenant_id, id);

CREATE TABLE bill_payment_run_items (
  tenant_id uuid NOT NULL,
  payment_id uuid NOT NULL,
  run_id uuid NOT NULL,
  line_no integer NOT NULL,
  payee text NOT NULL,
  bank_name text NOT NULL,
  account_number_sealed text NOT NULL,
  account_last4 text NOT NULL,
  branch_code text NOT NULL,
  account_type text NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  reference text NOT NULL,
  PRIMARY KEY (tenant_id, payment_id),
  FOREIGN KEY (tenant_id, payment_id) REFERENCES bill_payments (tenant_id, id),
  FOREIGN KEY (tenant_id, run_id) REFERENCES bill_payment_runs (tenant_id, id)
);
CREATE UNIQUE INDEX bill_payment_run_items_order ON bill_payment_run_items (tenant_id, run_id, line_no);
SELECT bp_tenant_table('bill_payment_run_items');
