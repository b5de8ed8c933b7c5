-- Customer credit and refunds (issue 14, item 8; item 7's deposits and advance payments use them):
--   * customer_credits: money a customer has with the company that no document owes yet, kept as
--     its own open item on the account it sits on:
--       overpayment      the excess of a payment over what was due (debtors control),
--       deposit_excess   what is left of a deposit applied to a smaller invoice (customer deposits:
--                        still a deposit, no supply yet, VAT Act s1 "consideration"),
--       advance_payment  a payment on account before any invoice (income received in advance, with
--                        the output VAT accounted on receipt, s9(1)).
--     Its stored status follows what remains: open, applied (nothing left, none of it refunded),
--     refunded (nothing left, some refunded), reversed (the payment it came from was reversed).
--   * invoice_allocations take a customer credit as their source too; the source is named by
--     source_id as before, and two generated columns keep each kind of source checked by a foreign
--     key. vat_amount: the output VAT an advance payment's application reverses (0 otherwise).
--   * customer_refunds: a payment out of what remains of a customer credit, a credit note or a
--     deposit (one table for every source), with the VAT it reverses (advance payments).
CREATE TABLE customer_credits (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('overpayment', 'deposit_excess', 'advance_payment')),
  date date NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  -- the output VAT accounted on receipt (an advance payment of a registered company), else 0
  vat_amount numeric(18, 2) NOT NULL DEFAULT 0 CHECK (vat_amount >= 0 AND vat_amount < amount),
  vat_rate numeric(6, 3),
  -- the account it sits on as its own open item (open_item_id = id)
  account_id uuid NOT NULL,
  -- where it came from: the payment and the invoice it overpaid, or the deposit it is left of
  payment_id uuid,
  document_id uuid,
  bank_account_id uuid,
  reference text,
  entry_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'applied', 'refunded', 'reversed')),
  reversed_at timestamptz,
  reversal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, payment_id) REFERENCES invoice_payments (tenant_id, id),
  FOREIGN KEY (tenant_id, document_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX customer_credits_by_contact ON customer_credits (tenant_id, company_id, contact_id, date);
CREATE UNIQUE INDEX customer_credits_one_per_payment ON customer_credits (tenant_id, payment_id)
  WHERE payment_id IS NOT NULL;
CREATE INDEX customer_credits_by_updated ON customer_credits (tenant_id, company_id, updated_at);
SELECT bp_tenant_table('customer_credits');
CREATE TRIGGER customer_credits_touch BEFORE UPDATE ON customer_credits
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

ALTER TABLE invoice_allocations DROP CONSTRAINT invoice_allocations_source_type_check;
ALTER TABLE invoice_allocations ADD CONSTRAINT invoice_allocations_source_type_check
  CHECK (source_type IN ('credit_note', 'deposit', 'customer_credit'));
ALTER TABLE invoice_allocations DROP CONSTRAINT invoice_allocations_tenant_id_source_id_fkey;
ALTER TABLE invoice_allocations ADD COLUMN source_document_id uuid
  GENERATED ALWAYS AS (CASE WHEN source_type <> 'customer_credit' THEN source_id END) STORED;
ALTER TABLE invoice_allocations ADD COLUMN source_credit_id uuid
  GENERATED ALWAYS AS (CASE WHEN source_type = 'customer_credit' THEN source_id END) STORED;
ALTER TABLE invoice_allocations ADD CONSTRAINT invoice_allocations_source_document_fk
  FOREIGN KEY (tenant_id, source_document_id) REFERENCES invoices (tenant_id, id);
ALTER TABLE invoice_allocations ADD CONSTRAINT invoice_allocations_source_credit_fk
  FOREIGN KEY (tenant_id, source_credit_id) REFERENCES customer_credits (tenant_id, id);
ALTER TABLE invoice_allocations ADD COLUMN vat_amount numeric(18, 2) NOT NULL DEFAULT 0
  CHECK (vat_amount >= 0 AND vat_amount < amount);

CREATE TABLE customer_refunds (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  source_type text NOT NULL CHECK (source_type IN ('customer_credit', 'credit_note', 'deposit')),
  source_id uuid NOT NULL,
  source_document_id uuid
    GENERATED ALWAYS AS (CASE WHEN source_type <> 'customer_credit' THEN source_id END) STORED,
  source_credit_id uuid
    GENERATED ALWAYS AS (CASE WHEN source_type = 'customer_credit' THEN source_id END) STORED,
  date date NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  -- the output VAT it reverses (an advance payment refunded, s21), else 0
  vat_amount numeric(18, 2) NOT NULL DEFAULT 0 CHECK (vat_amount >= 0 AND vat_amount < amount),
  bank_account_id uuid NOT NULL,
  reference text,
  entry_id uuid NOT NULL,
  reversed_at timestamptz,
  reversal_entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, source_document_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, source_credit_id) REFERENCES customer_credits (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX customer_refunds_by_source ON customer_refunds (tenant_id, source_id);
SELECT bp_tenant_table('customer_refunds');
CREATE TRIGGER customer_refunds_touch BEFORE UPDATE ON customer_refunds
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- A credit note or deposit whose remaining amount went back to the customer is `refunded`; a
-- deposit the customer forfeited is `forfeited` (deposits.ts, migrations/0028).
ALTER TABLE invoices DROP CONSTRAINT invoices_status_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN (
  'draft', 'open', 'partially_paid', 'paid', 'applied', 'written_off', 'refunded', 'forfeited', 'void',
  'accepted', 'declined', 'converted'));
