-- Supplier credit notes (issue 16): a supplier's credit against one of its bills, never more than
-- what remains of it (its total less the credit notes already against it), at the bill's tax codes
-- and rates (VAT Act s21: the adjustment follows the supply). Posted when captured:
--   offset   Dr creditors control (the bill's open item)  Cr expense per line  Cr VAT input
--            (it reduces what is owed on the bill: never more than is due on it)
--   refund   Dr bank                                      Cr expense per line  Cr VAT input
--            (the supplier paid the money back: never more than was paid on the bill; refunded_at)
CREATE TABLE bill_credit_notes (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  bill_id uuid NOT NULL,
  credit_note_number text NOT NULL CHECK (btrim(credit_note_number) <> ''),
  issue_date date NOT NULL,
  reason text,
  settlement text NOT NULL CHECK (settlement IN ('offset', 'refund')),
  status text NOT NULL CHECK (status IN ('applied', 'refunded', 'void')),
  supplier_return_id uuid,
  net numeric(18, 2) NOT NULL,
  vat numeric(18, 2) NOT NULL,
  total numeric(18, 2) NOT NULL CHECK (total > 0),
  bank_account_id uuid,
  refunded_at timestamptz,
  entry_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, bill_id) REFERENCES bills (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
  CHECK ((settlement = 'refund') = (bank_account_id IS NOT NULL))
);
CREATE INDEX bill_credit_notes_by_bill ON bill_credit_notes (tenant_id, bill_id);
CREATE INDEX bill_credit_notes_list ON bill_credit_notes (tenant_id, company_id, issue_date DESC, id);
CREATE UNIQUE INDEX bill_credit_notes_supplier_number
  ON bill_credit_notes (tenant_id, company_id, contact_id, lower(btrim(credit_note_number)))
  WHERE status <> 'void';
SELECT bp_tenant_table('bill_credit_notes');
CREATE TRIGGER bill_credit_notes_touch BEFORE UPDATE ON bill_credit_notes
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE bill_credit_note_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  credit_note_id uuid NOT NULL,
  line_no integer NOT NULL,
  description text NOT NULL,
  quantity numeric(18, 4) NOT NULL,
  unit_price numeric(18, 4) NOT NULL,
  tax_code text NOT NULL CHECK (tax_code IN ('standard', 'standard_capital', 'zero', 'exempt', 'out_of_scope')),
  vat_rate numeric(6, 3) NOT NULL CHECK (vat_rate BETWEEN 0 AND 100),
  account_id uuid NOT NULL,
  net_amount numeric(18, 2) NOT NULL,
  vat_amount numeric(18, 2) NOT NULL,
  total_amount numeric(18, 2) NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, credit_note_id) REFERENCES bill_credit_notes (tenant_id, id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
);
CREATE UNIQUE INDEX bill_credit_note_lines_no ON bill_credit_note_lines (tenant_id, credit_note_id, line_no);
SELECT bp_tenant_table('bill_credit_note_lines');
