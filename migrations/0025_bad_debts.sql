-- Bad debts (issue 14, VAT Act s22): an invoice or debit note written off, in whole or in part.
--   * invoice_write_offs: each write-off, with the VAT part claimed back as input tax (s22(1)) and
--     the entry that posted it; a written-off amount no longer counts as due;
--   * a receivable written off to nothing is `written_off`;
--   * a bad debt recovered (s22(2)), money received after the write-off: invoice_bad_debt_recoveries,
--     with the VAT part declared as output tax again;
--   * journal lines take the tax codes `input_bad_debt` (the VAT of a bad debt claimed back: VAT201
--     field 17) and `bad_debt_recovered` (the VAT on a recovery, output tax: field 12), on the VAT
--     account's line and on the bad-debts (recovered) line carrying its net;
--   * the chart: 6800 Bad debts (system key bad_debts) is there since 0008; 4950 Bad debts recovered
--     (income / other_income, system key bad_debts_recovered) is added to every company, and to
--     every company made later, by a trigger on the bad debts account's insert (so the seeding
--     functions of 0008 and 0022 are not redefined here).

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


CREATE TABLE invoice_bad_debt_recoveries (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  invoice_id uuid NOT NULL,
  date date NOT NULL,
  -- received (VAT included), and the VAT part of it declared as output tax again
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  vat_amount numeric(18, 2) NOT NULL CHECK (vat_amount >= 0 AND vat_amount <= amount),
  bank_account_id uuid NOT NULL,
  reference text,
  entry_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE INDEX invoice_bad_debt_recoveries_by_invoice ON invoice_bad_debt_recoveries (tenant_id, invoice_id, date);
SELECT bp_tenant_table('invoice_bad_debt_recoveries');
CREATE TRIGGER invoice_bad_debt_recoveries_touch BEFORE UPDATE ON invoice_bad_debt_recoveries
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_tax_code_check;
ALTER TABLE journal_lines ADD CONSTRAINT journal_lines_tax_code_check CHECK (tax_code IN (
  'standard', 'standard_capital', 'zero', 'zero_export', 'exempt', 'bad_debt_recovered',
  'input_standard', 'input_capital', 'input_zero', 'input_exempt', 'input_import', 'input_bad_debt'));

-- 4950 Bad debts recovered, once per company (idempotent: a company that has the system key keeps
-- its account; one that took the code 4950 for an account of its own gets 4950.1).
CREATE FUNCTION bp_seed_bad_debts_recovered(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key, is_control)
    SELECT p_tenant, gen_random_uuid(), p_company,
           CASE WHEN EXISTS (SELECT 1 FROM accounts c
                              WHERE c.tenant_id = p_tenant AND c.company_id = p_company AND lower(c.code) = '4950')
                THEN '4950.1' ELSE '4950' END,
           'Bad debts recovered', 'income', 'other_income', 'bad_debts_recovered', false
     WHERE NOT EXISTS (SELECT 1 FROM accounts a
                        WHERE a.tenant_id = p_tenant AND a.company_id = p_company
                          AND a.system_key = 'bad_debts_recovered');
$$;

CREATE FUNCTION bp_bad_debts_recovered_follows() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bp_seed_bad_debts_recovered(NEW.tenant_id, NEW.company_id);
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_bad_debts_recovered AFTER INSERT ON accounts
  FOR EACH ROW WHEN (NEW.system_key = 'bad_debts') EXECUTE FUNCTION bp_bad_debts_recovered_follows();

-- Existing companies (row-level security lifted for this statement only, as in 0022).
ALTER TABLE accounts NO FORCE ROW LEVEL SECURITY;
SELECT bp_seed_bad_debts_recovered(tenant_id, company_id) FROM accounts WHERE system_key = 'bad_debts';
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;
