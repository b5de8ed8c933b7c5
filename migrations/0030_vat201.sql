-- The full VAT201 (issue 14, "The VAT return (VAT201) in full"; SARS GEN-ELEC-04-G01):
--   * journal lines take the new tax codes: accommodation_short and accommodation_long (commercial
--     accommodation of 28 days or less, and of more, s10(10): fields 7, 5), change_in_use (s18(1):
--     fields 10, 11), imported_services (s7(1)(c): field 12), input_capital_import (field 14A),
--     input_change_in_use (s18(4): field 16), input_other (field 18); sales lines take the two
--     accommodation codes;
--   * a company has a VAT category (the tax period of s27): A and B two-monthly (A ending in odd
--     months, B in even months), C monthly, D six-monthly (ending February and August), E twelve
--     months ending at the financial year end. B, the two-monthly period SARS gives most small
--     vendors, is the default;
--   * a submitted VAT period keeps a snapshot of its totals by code and rate (vat_period_totals):
--     its report answers the snapshot, and what is posted later dated in it is reported in the
--     next open period's fields 12 and 18 (the snapshot rows a later submission took over from
--     an earlier period record what that submission reported for it).

ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_tax_code_check;
ALTER TABLE journal_lines ADD CONSTRAINT journal_lines_tax_code_check CHECK (tax_code IN (
  'standard', 'standard_capital', 'zero', 'zero_export', 'exempt', 'bad_debt_recovered',
  'accommodation_short', 'accommodation_long', 'change_in_use', 'imported_services',
  'input_standard', 'input_capital', 'input_zero', 'input_exempt', 'input_import', 'input_bad_debt',
  'input_capital_import', 'input_change_in_use', 'input_other'));

ALTER TABLE invoice_lines DROP CONSTRAINT invoice_lines_tax_code;
ALTER TABLE invoice_lines ADD CONSTRAINT invoice_lines_tax_code CHECK (tax_code IN (
  'standard', 'zero', 'zero_export', 'exempt', 'out_of_scope', 'accommodation_short', 'accommodation_long'));
ALTER TABLE recurring_invoice_lines DROP CONSTRAINT recurring_invoice_lines_tax_code;
ALTER TABLE recurring_invoice_lines ADD CONSTRAINT recurring_invoice_lines_tax_code CHECK (tax_code IN (
  'standard', 'zero', 'zero_export', 'exempt', 'out_of_scope', 'accommodation_short', 'accommodation_long'));

ALTER TABLE companies ADD COLUMN vat_category text NOT NULL DEFAULT 'B'
  CHECK (vat_category IN ('A', 'B', 'C', 'D', 'E'));

-- A VAT period marked submitted; id is the period's end month (YYYY-MM).
CREATE TABLE vat_period_submissions (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  period_id text NOT NULL CHECK (period_id ~ '^\d{4}-(0[1-9]|1[0-2])$'),
  date_from date NOT NULL,
  date_to date NOT NULL CHECK (date_to >= date_from),
  submitted_at timestamptz NOT NULL DEFAULT now(),
  submitted_by_type text,
  submitted_by text,
  PRIMARY KEY (tenant_id, company_id, period_id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
SELECT bp_tenant_table('vat_period_submissions');

-- What a submission reported, by code and rate: for its own period (source_period_id =
-- period_id) the totals then posted; for an earlier submitted period, the difference between
-- that period's totals then and what had been reported for it before (its adjustments, in
-- fields 12 and 18). transition: a standard-rated code at a rate other than the standard rate of
-- its date (a credit or debit note against a supply at 14%, dated from 2018-04-01).
CREATE TABLE vat_period_totals (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  period_id text NOT NULL,
  source_period_id text NOT NULL,
  tax_code text NOT NULL,
  tax_rate numeric(6, 3) NOT NULL,
  transition boolean NOT NULL,
  base_debit numeric(20, 2) NOT NULL,
  base_credit numeric(20, 2) NOT NULL,
  tax_debit numeric(20, 2) NOT NULL,
  tax_credit numeric(20, 2) NOT NULL,
  PRIMARY KEY (tenant_id, company_id, period_id, source_period_id, tax_code, tax_rate, transition),
  FOREIGN KEY (tenant_id, company_id, period_id) REFERENCES vat_period_submissions (tenant_id, company_id, period_id)
);
CREATE INDEX vat_period_totals_by_source ON vat_period_totals (tenant_id, company_id, source_period_id);
SELECT bp_tenant_table('vat_period_totals');
