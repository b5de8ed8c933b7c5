-- The chart of accounts of a South African company (issue 14): a company's legal form, the
-- accounts a (Pty) Ltd needs and the 0008 chart lacked, an income tax subtype, and "Drawings"
-- only for a sole proprietor or a partnership.
--
-- New accounts (code, name, type / subtype, system key):
--   1110 Allowance for credit losses          asset / receivable (contra: a credit balance)    credit_loss_allowance
--   2110 VAT control (SARS)                    liability / current_liability                    vat_control
--   2120 Income tax payable (SARS)             liability / current_liability                    income_tax_payable
--   2130 Dividends tax payable (SARS)          liability / current_liability                    dividends_tax_payable
--   2140 Dividends payable                     liability / current_liability                    dividends_payable
--   2410 Credit card                           liability / current_liability                    credit_card
--   2420 Income received in advance            liability / current_liability                    income_in_advance
--   2450 Current portion of long-term loans    liability / current_liability                    loans_current_portion
--   2510 Shareholder's / director's loan       liability / non_current_liability                shareholder_loan
--   2900 Suspense                              liability / current_liability                    suspense
--   3200 Drawings (sole proprietor, partnership only)  equity / equity                          drawings
--   3300 Dividends declared                    equity / equity (a debit balance)                dividends_declared
--   3400 Opening balances                      equity / equity                                  opening_balances
--   9000 Income tax expense                    expense / income_tax                             income_tax

-- The legal form: what the chart holds (drawings) depends on it.
ALTER TABLE companies ADD COLUMN legal_form text NOT NULL DEFAULT 'pty_ltd' CHECK (legal_form IN (
  'pty_ltd', 'public_company', 'close_corporation', 'sole_proprietor', 'partnership', 'trust', 'npc'));

-- income_tax: the expense below "net profit before tax" on the income statement.
ALTER TABLE accounts DROP CONSTRAINT accounts_subtype_check;
ALTER TABLE accounts DROP CONSTRAINT accounts_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_subtype_check CHECK (subtype IN (
    'bank', 'receivable', 'current_asset', 'inventory', 'fixed_asset', 'non_current_asset',
    'payable', 'current_liability', 'non_current_liability',
    'equity', 'retained_earnings',
    'revenue', 'other_income',
    'cost_of_sales', 'expense', 'income_tax'));
ALTER TABLE accounts ADD CONSTRAINT accounts_check CHECK (
    (type = 'asset' AND subtype IN ('bank', 'receivable', 'current_asset', 'inventory', 'fixed_asset', 'non_current_asset'))
    OR (type = 'liability' AND subtype IN ('payable', 'current_liability', 'non_current_liability'))
    OR (type = 'equity' AND subtype IN ('equity', 'retained_earnings'))
    OR (type = 'income' AND subtype IN ('revenue', 'other_income'))
    OR (type = 'expense' AND subtype IN ('cost_of_sales', 'expense', 'income_tax')));

-- The accounts 0022 adds to every company (idempotent: an account whose system key the company
-- has, or whose code it has taken for an account of its own, is left out).
CREATE FUNCTION bp_seed_company_accounts(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key, is_control)
    SELECT p_tenant, gen_random_uuid(), p_company, c.code, c.name, c.type, c.subtype, c.system_key, false
      FROM (VALUES
        ('1110', 'Allowance for credit losses', 'asset', 'receivable', 'credit_loss_allowance'),
        ('2110', 'VAT control (SARS)', 'liability', 'current_liability', 'vat_control'),
        ('2120', 'Income tax payable (SARS, provisional tax)', 'liability', 'current_liability', 'income_tax_payable'),
        ('2130', 'Dividends tax payable (SARS)', 'liability', 'current_liability', 'dividends_tax_payable'),
        ('2140', 'Dividends payable', 'liability', 'current_liability', 'dividends_payable'),
        ('2410', 'Credit card', 'liability', 'current_liability', 'credit_card'),
        ('2420', 'Income received in advance', 'liability', 'current_liability', 'income_in_advance'),
        ('2450', 'Current portion of long-term loans', 'liability', 'current_liability', 'loans_current_portion'),
        ('2510', 'Shareholder''s loan (director''s loan)', 'liability', 'non_current_liability', 'shareholder_loan'),
        ('2900', 'Suspense', 'liability', 'current_liability', 'suspense'),
        ('3300', 'Dividends declared', 'equity', 'equity', 'dividends_declared'),
        ('3400', 'Opening balances', 'equity', 'equity', 'opening_balances'),
        ('9000', 'Income tax expense', 'expense', 'income_tax', 'income_tax')
      ) AS c (code, name, type, subtype, system_key)
    ON CONFLICT DO NOTHING;
$$;

-- Drawings follow the legal form: a sole proprietor or a partnership has an active Drawings
-- account (added when missing), any other form has none or has it deactivated (its history
-- stays and is reported; nothing more can be posted to it).
CREATE FUNCTION bp_apply_legal_form(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key)
    SELECT p_tenant, gen_random_uuid(), p_company, '3200', 'Drawings', 'equity', 'equity', 'drawings'
      FROM companies c
     WHERE c.tenant_id = p_tenant AND c.id = p_company
       AND c.legal_form IN ('sole_proprietor', 'partnership')
    ON CONFLICT DO NOTHING;
  UPDATE accounts a SET is_active = c.legal_form IN ('sole_proprietor', 'partnership'), updated_at = now()
    FROM companies c
   WHERE c.tenant_id = p_tenant AND c.id = p_company
     AND a.tenant_id = p_tenant AND a.company_id = p_company AND a.system_key = 'drawings'
     AND a.is_active IS DISTINCT FROM (c.legal_form IN ('sole_proprietor', 'partnership'));
$$;

-- The default chart of a new company: 0008's accounts but Drawings, then 0022's, then what its
-- legal form adds. Codes: 1 assets, 2 liabilities, 3 equity, 4 income, 5 cost of sales,
-- 6 expenses, 9 income tax.
CREATE OR REPLACE FUNCTION bp_seed_default_chart(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO ledger_settings (tenant_id, company_id) VALUES (p_tenant, p_company)
    ON CONFLICT DO NOTHING;
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key, is_control)
    SELECT p_tenant, gen_random_uuid(), p_company, c.code, c.name, c.type, c.subtype, c.system_key, c.is_control
      FROM (VALUES
        ('1000', 'Bank', 'asset', 'bank', 'bank', false),
        ('1050', 'Petty cash', 'asset', 'bank', 'petty_cash', false),
        ('1100', 'Trade debtors (debtors control)', 'asset', 'receivable', 'debtors_control', true),
        ('1200', 'Inventory', 'asset', 'inventory', 'inventory', true),
        ('1300', 'VAT input', 'asset', 'current_asset', 'vat_input', false),
        ('1400', 'Prepayments', 'asset', 'current_asset', NULL, false),
        ('1500', 'Equipment', 'asset', 'fixed_asset', NULL, false),
        ('1510', 'Equipment: accumulated depreciation', 'asset', 'fixed_asset', NULL, false),
        ('1520', 'Motor vehicles', 'asset', 'fixed_asset', NULL, false),
        ('1530', 'Motor vehicles: accumulated depreciation', 'asset', 'fixed_asset', NULL, false),
        ('2000', 'Trade creditors (creditors control)', 'liability', 'payable', 'creditors_control', true),
        ('2100', 'VAT output', 'liability', 'current_liability', 'vat_output', false),
        ('2200', 'Customer deposits', 'liability', 'current_liability', 'customer_deposits', true),
        ('2300', 'PAYE payable', 'liability', 'current_liability', 'paye_payable', false),
        ('2310', 'UIF payable', 'liability', 'current_liability', 'uif_payable', false),
        ('2320', 'SDL payable', 'liability', 'current_liability', 'sdl_payable', false),
        ('2330', 'Salaries payable', 'liability', 'current_liability', 'salaries_payable', false),
        ('2400', 'Accruals', 'liability', 'current_liability', NULL, false),
        ('2500', 'Loans', 'liability', 'non_current_liability', NULL, false),
        ('3000', 'Share capital', 'equity', 'equity', 'share_capital', false),
        ('3100', 'Retained earnings', 'equity', 'retained_earnings', 'retained_earnings', false),
        ('4000', 'Sales', 'income', 'revenue', 'sales', false),
        ('4100', 'Services', 'income', 'revenue', 'services', false),
        ('4200', 'Interest received', 'income', 'other_income', 'interest_received', false),
        ('4300', 'Discount received', 'income', 'other_income', 'discount_received', false),
        ('4900', 'Other income', 'income', 'other_income', NULL, false),
        ('5000', 'Cost of sales', 'expense', 'cost_of_sales', 'cost_of_sales', false),
        ('5100', 'Purchases', 'expense', 'cost_of_sales', 'purchases', false),
        ('6000', 'Accounting fees', 'expense', 'expense', NULL, false),
        ('6050', 'Advertising and marketing', 'expense', 'expense', NULL, false),
        ('6100', 'Bank charges', 'expense', 'expense', 'bank_charges', false),
        ('6150', 'Computer expenses', 'expense', 'expense', NULL, false),
        ('6200', 'Depreciation', 'expense', 'expense', 'depreciation', false),
        ('6250', 'Insurance', 'expense', 'expense', NULL, false),
        ('6300', 'Interest paid', 'expense', 'expense', 'interest_paid', false),
        ('6350', 'Motor vehicle expenses', 'expense', 'expense', NULL, false),
        ('6400', 'Rent', 'expense', 'expense', NULL, false),
        ('6450', 'Repairs and maintenance', 'expense', 'expense', NULL, false),
        ('6500', 'Salaries and wages', 'expense', 'expense', 'salaries', false),
        ('6510', 'UIF: employer contribution', 'expense', 'expense', 'uif_expense', false),
        ('6520', 'Skills development levy', 'expense', 'expense', 'sdl_expense', false),
        ('6550', 'Stationery and printing', 'expense', 'expense', NULL, false),
        ('6600', 'Telephone and internet', 'expense', 'expense', NULL, false),
        ('6650', 'Travel and accommodation', 'expense', 'expense', NULL, false),
        ('6700', 'Electricity and water', 'expense', 'expense', NULL, false),
        ('6750', 'General expenses', 'expense', 'expense', 'general_expenses', false),
        ('6800', 'Bad debts', 'expense', 'expense', 'bad_debts', false),
        ('6850', 'Discount allowed', 'expense', 'expense', 'discount_allowed', false),
        ('6900', 'Rounding', 'expense', 'expense', 'rounding', false)
      ) AS c (code, name, type, subtype, system_key, is_control)
    ON CONFLICT DO NOTHING;
  SELECT bp_seed_company_accounts(p_tenant, p_company);
  SELECT bp_apply_legal_form(p_tenant, p_company);
$$;

-- Existing companies (every one is a pty_ltd until its form is set): 0008's "3200 Drawings"
-- becomes the drawings system account, the new accounts are added, and the legal form applied
-- (a (Pty) Ltd's drawings are deactivated, their history kept). Row-level security is lifted
-- for these statements only (the migration runs as the tables' owner, with no tenant set).
ALTER TABLE companies NO FORCE ROW LEVEL SECURITY;
ALTER TABLE accounts NO FORCE ROW LEVEL SECURITY;
UPDATE accounts a SET system_key = 'drawings'
 WHERE a.code = '3200' AND a.type = 'equity' AND a.system_key IS NULL AND lower(a.name) LIKE '%drawings%'
   AND NOT EXISTS (SELECT 1 FROM accounts d
                    WHERE d.tenant_id = a.tenant_id AND d.company_id = a.company_id AND d.system_key = 'drawings');
SELECT bp_seed_company_accounts(tenant_id, id), bp_apply_legal_form(tenant_id, id) FROM companies;
ALTER TABLE companies FORCE ROW LEVEL SECURITY;
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;
