-- Bad debts (issue 14, VAT Act s22): an invoice or debit note written off, in whole or in part.
--   * invoice_write_offs: each write-off, with the VAT part claimed back as input tax (s22(1)) and
--     the entry that posted it; a written-off amount no longer counts as due;
--   * a receivable written off to nothing is `written_off`;
--   * journal lines take the tax code `input_bad_debt`: the VAT of a bad debt claimed back (the
--     VAT201's field 17), on the VAT input account's line and on the bad-debts expense line (its net).
-- The chart already has 6800 Bad debts (system key bad_debts, 0008 and 0022): nothing to add.

CREATE TABLE invoice_write_offs (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  invoice_id uuid NOT NULL,
  date date NOT NULL,
  -- what was written off (VAT included), and the VAT part of it claimed as input tax
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  vat_amount numeric(18, 2) NOT NULL CHECK (vat_amount >= 0 AND vat_amount <= amount),
  reason text NOT NULL,
  entry_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX invoice_write_offs_by_invoice ON invoice_write_offs (tenant_id, invoice_id, date);
SELECT bp_tenant_table('invoice_write_offs');
CREATE TRIGGER invoice_write_offs_touch BEFORE UPDATE ON invoice_write_offs
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

ALTER TABLE invoices DROP CONSTRAINT invoices_status_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN (
  'draft', 'open', 'partially_paid', 'paid', 'applied', 'written_off', 'void', 'accepted', 'declined',
  'converted'));

ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_tax_code_check;
ALTER TABLE journal_lines ADD CONSTRAINT journal_lines_tax_code_check CHECK (tax_code IN (
  'standard', 'standard_capital', 'zero', 'zero_export', 'exempt',
  'input_standard', 'input_capital', 'input_zero', 'input_exempt', 'input_import', 'input_bad_debt'));
