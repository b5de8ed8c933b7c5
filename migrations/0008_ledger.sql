-- The ledger: each company's chart of accounts, journal entries and their lines, and the
-- running balances the reports read.
--
-- Rules the database keeps, whoever writes:
--   * an entry balances to the cent (a deferred constraint trigger, checked at commit) and has
--     at least two lines;
--   * a line belongs to its entry's company and date, and to an account of that company
--     (composite foreign keys);
--   * nothing is dated on or before the company's lock date (a trigger on entries);
--   * posted entries and lines are never changed: bp_app may insert them, not update them
--     (a void posts a reversal, at most one per entry);
--   * balances per account per day, per VAT code and rate per day, per cash-flow counter
--     account per day, and per open item are maintained by statement triggers in the same
--     transaction as the lines, so reports cost what the number of accounts and days costs,
--     not the number of lines.

-- Per company: the lock date (nothing may be posted on or before it) and the financial year.
CREATE TABLE ledger_settings (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  lock_date date,
  -- the month the financial year ends in (South African companies mostly end in February)
  financial_year_end_month smallint NOT NULL DEFAULT 2 CHECK (financial_year_end_month BETWEEN 1 AND 12),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, company_id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
SELECT bp_tenant_table('ledger_settings');

CREATE TABLE accounts (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  code text NOT NULL CHECK (code ~ '^[A-Za-z0-9.-]{1,20}$'),
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'income', 'expense')),
  -- where the account sits in the statements (and which cash-flow activity it belongs to)
  subtype text NOT NULL CHECK (subtype IN (
    'bank', 'receivable', 'current_asset', 'inventory', 'fixed_asset', 'non_current_asset',
    'payable', 'current_liability', 'non_current_liability',
    'equity', 'retained_earnings',
    'revenue', 'other_income',
    'cost_of_sales', 'expense')),
  -- the role modules post to it by ('bank', 'debtors_control', 'vat_output', ...); one per company
  system_key text,
  -- posted to by documents only, never by a manual journal (debtors, creditors, ...)
  is_control boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  CHECK (
    (type = 'asset' AND subtype IN ('bank', 'receivable', 'current_asset', 'inventory', 'fixed_asset', 'non_current_asset'))
    OR (type = 'liability' AND subtype IN ('payable', 'current_liability', 'non_current_liability'))
    OR (type = 'equity' AND subtype IN ('equity', 'retained_earnings'))
    OR (type = 'income' AND subtype IN ('revenue', 'other_income'))
    OR (type = 'expense' AND subtype IN ('cost_of_sales', 'expense')))
);
CREATE UNIQUE INDEX accounts_code ON accounts (tenant_id, company_id, lower(code));
CREATE UNIQUE INDEX accounts_system_key ON accounts (tenant_id, company_id, system_key) WHERE system_key IS NOT NULL;
SELECT bp_tenant_table('accounts');

CREATE TABLE journal_entries (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  date date NOT NULL,
  description text NOT NULL,
  reference text,
  -- what posted it: 'manual_journal', 'invoice', 'payment', ... and that record's id
  source_type text NOT NULL,
  source_id uuid,
  -- set on a reversal: the entry it cancels (at most one reversal per entry)
  reverses_entry_id uuid,
  created_by_type text,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id, date),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, reverses_entry_id) REFERENCES journal_entries (tenant_id, id)
);
CREATE UNIQUE INDEX journal_entries_one_reversal ON journal_entries (tenant_id, reverses_entry_id)
  WHERE reverses_entry_id IS NOT NULL;
CREATE INDEX journal_entries_source ON journal_entries (tenant_id, source_type, source_id);
CREATE INDEX journal_entries_by_date ON journal_entries (tenant_id, company_id, date, created_at, id);
SELECT bp_tenant_table('journal_entries');
REVOKE UPDATE ON journal_entries FROM bp_app;

CREATE TABLE journal_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  entry_id uuid NOT NULL,
  line_no integer NOT NULL,
  company_id uuid NOT NULL,
  -- the entry's date, repeated here for the account and period indexes
  date date NOT NULL,
  account_id uuid NOT NULL,
  debit numeric(18, 2) NOT NULL DEFAULT 0 CHECK (debit >= 0),
  credit numeric(18, 2) NOT NULL DEFAULT 0 CHECK (credit >= 0),
  description text,
  contact_id uuid,
  -- the document this line opens or settles (an invoice, a bill): aged debtors and creditors
  -- group a control account's lines by it; NULL groups the line with its own entry
  open_item_id uuid,
  due_date date,
  -- VAT: on a revenue or expense line, the code and rate its net amount was taxed at; on a VAT
  -- account's line, the code and rate of the tax it carries (the VAT201 boxes come from these)
  tax_code text CHECK (tax_code IN (
    'standard', 'standard_capital', 'zero', 'zero_export', 'exempt',
    'input_standard', 'input_capital', 'input_zero', 'input_exempt', 'input_import')),
  tax_rate numeric(6, 3),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, entry_id, line_no),
  FOREIGN KEY (tenant_id, company_id, entry_id, date) REFERENCES journal_entries (tenant_id, company_id, id, date),
  FOREIGN KEY (tenant_id, company_id, account_id) REFERENCES accounts (tenant_id, company_id, id),
  CHECK ((debit = 0) <> (credit = 0)),
  CHECK ((tax_code IS NULL) = (tax_rate IS NULL))
);
CREATE INDEX journal_lines_by_account ON journal_lines (tenant_id, company_id, account_id, date, entry_id);
CREATE INDEX journal_lines_by_date ON journal_lines (tenant_id, company_id, date, entry_id, line_no);
CREATE INDEX journal_lines_by_entry ON journal_lines (tenant_id, entry_id, line_no);
CREATE INDEX journal_lines_by_contact ON journal_lines (tenant_id, contact_id, account_id, date) WHERE contact_id IS NOT NULL;
CREATE INDEX journal_lines_by_open_item ON journal_lines (tenant_id, company_id, account_id, open_item_id) WHERE open_item_id IS NOT NULL;
SELECT bp_tenant_table('journal_lines');
REVOKE UPDATE ON journal_lines FROM bp_app;

-- Debits and credits per account per day: a trial balance as of a date sums these rows.
CREATE TABLE account_balances (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  account_id uuid NOT NULL,
  date date NOT NULL,
  debit numeric(20, 2) NOT NULL DEFAULT 0,
  credit numeric(20, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, account_id, date),
  FOREIGN KEY (tenant_id, company_id, account_id) REFERENCES accounts (tenant_id, company_id, id)
);
CREATE INDEX account_balances_by_date ON account_balances (tenant_id, company_id, date);
SELECT bp_tenant_table('account_balances');

-- Per VAT code and rate per day: the net amounts taxed (base) and the VAT itself (tax).
CREATE TABLE tax_balances (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  tax_code text NOT NULL,
  tax_rate numeric(6, 3) NOT NULL,
  date date NOT NULL,
  base_debit numeric(20, 2) NOT NULL DEFAULT 0,
  base_credit numeric(20, 2) NOT NULL DEFAULT 0,
  tax_debit numeric(20, 2) NOT NULL DEFAULT 0,
  tax_credit numeric(20, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, tax_code, tax_rate, date),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
SELECT bp_tenant_table('tax_balances');

-- Cash flow per counter account per day: for every entry that moves a bank account, its
-- other lines' credit minus debit (which sums to the cash that came in), by their account.
CREATE TABLE cash_flow_balances (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  account_id uuid NOT NULL,
  date date NOT NULL,
  amount numeric(20, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, account_id, date),
  FOREIGN KEY (tenant_id, company_id, account_id) REFERENCES accounts (tenant_id, company_id, id)
);
SELECT bp_tenant_table('cash_flow_balances');

-- Open items of accounts whose lines name one (debtors, creditors): the balance now, the
-- first and last line dates. Aged debtors as of a date skip every item settled by then.
CREATE TABLE open_items (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  account_id uuid NOT NULL,
  item_id uuid NOT NULL,
  contact_id uuid,
  due_date date,
  first_date date NOT NULL,
  last_date date NOT NULL,
  balance numeric(20, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, account_id, item_id),
  FOREIGN KEY (tenant_id, company_id, account_id) REFERENCES accounts (tenant_id, company_id, id)
);
CREATE INDEX open_items_open ON open_items (tenant_id, company_id, account_id) WHERE balance <> 0;
CREATE INDEX open_items_by_contact ON open_items (tenant_id, contact_id);
SELECT bp_tenant_table('open_items');

-- An entry balances to the cent and has at least two lines, checked at commit.
CREATE FUNCTION bp_check_entry_balanced() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  d numeric;
  c numeric;
  n integer;
BEGIN
  SELECT coalesce(sum(debit), 0), coalesce(sum(credit), 0), count(*) INTO d, c, n
    FROM journal_lines WHERE tenant_id = NEW.tenant_id AND entry_id = NEW.id;
  IF n < 2 THEN
    RAISE EXCEPTION 'journal entry % has % line(s); at least two are needed', NEW.id, n
      USING ERRCODE = '23514';
  END IF;
  IF d <> c THEN
    RAISE EXCEPTION 'journal entry % does not balance: debits %, credits %', NEW.id, d, c
      USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bp_check_entry_balanced();

-- Lines added later to an entry that was already checked would escape the check above.
CREATE FUNCTION bp_check_lines_balanced() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  bad uuid;
BEGIN
  SELECT l.entry_id INTO bad
    FROM journal_lines l
    WHERE (l.tenant_id, l.entry_id) IN (SELECT DISTINCT tenant_id, entry_id FROM new_lines)
    GROUP BY l.entry_id
    HAVING sum(l.debit) <> sum(l.credit)
    LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % does not balance', bad USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END
$$;

-- Nothing is posted on or before the company's lock date.
CREATE FUNCTION bp_check_lock_date() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  locked date;
BEGIN
  SELECT lock_date INTO locked FROM ledger_settings
    WHERE tenant_id = NEW.tenant_id AND company_id = NEW.company_id;
  IF locked IS NOT NULL AND NEW.date <= locked THEN
    RAISE EXCEPTION 'the books are locked up to %; % cannot be posted', locked, NEW.date
      USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER journal_entries_lock_date BEFORE INSERT ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION bp_check_lock_date();

-- The running balances, maintained from each INSERT's new lines at once (one upsert per
-- account and day, in key order so that concurrent postings lock rows in the same order).
CREATE FUNCTION bp_maintain_balances() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_balances AS b (tenant_id, company_id, account_id, date, debit, credit)
    SELECT tenant_id, company_id, account_id, date, sum(debit), sum(credit)
      FROM new_lines
      GROUP BY tenant_id, company_id, account_id, date
      ORDER BY tenant_id, company_id, account_id, date
    ON CONFLICT (tenant_id, company_id, account_id, date)
      DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;

  INSERT INTO tax_balances AS b
      (tenant_id, company_id, tax_code, tax_rate, date, base_debit, base_credit, tax_debit, tax_credit)
    SELECT l.tenant_id, l.company_id, l.tax_code, l.tax_rate, l.date,
           coalesce(sum(l.debit) FILTER (WHERE NOT a.is_vat), 0),
           coalesce(sum(l.credit) FILTER (WHERE NOT a.is_vat), 0),
           coalesce(sum(l.debit) FILTER (WHERE a.is_vat), 0),
           coalesce(sum(l.credit) FILTER (WHERE a.is_vat), 0)
      FROM new_lines l
      JOIN LATERAL (
        SELECT coalesce(ac.system_key IN ('vat_input', 'vat_output'), false) AS is_vat
          FROM accounts ac
          WHERE ac.tenant_id = l.tenant_id AND ac.company_id = l.company_id AND ac.id = l.account_id
      ) a ON true
      WHERE l.tax_code IS NOT NULL
      GROUP BY l.tenant_id, l.company_id, l.tax_code, l.tax_rate, l.date
      ORDER BY l.tenant_id, l.company_id, l.tax_code, l.tax_rate, l.date
    ON CONFLICT (tenant_id, company_id, tax_code, tax_rate, date)
      DO UPDATE SET base_debit = b.base_debit + excluded.base_debit,
                    base_credit = b.base_credit + excluded.base_credit,
                    tax_debit = b.tax_debit + excluded.tax_debit,
                    tax_credit = b.tax_credit + excluded.tax_credit;

  -- An entry's lines arrive in one INSERT (the posting service writes them so), so the
  -- entries that move cash can be told from the new lines alone.
  INSERT INTO cash_flow_balances AS b (tenant_id, company_id, account_id, date, amount)
    SELECT l.tenant_id, l.company_id, l.account_id, l.date, sum(l.credit - l.debit)
      FROM new_lines l
      JOIN accounts a ON a.tenant_id = l.tenant_id AND a.company_id = l.company_id AND a.id = l.account_id
      WHERE a.subtype <> 'bank'
        AND (l.tenant_id, l.entry_id) IN (
          SELECT c.tenant_id, c.entry_id FROM new_lines c
            JOIN accounts ca ON ca.tenant_id = c.tenant_id AND ca.company_id = c.company_id AND ca.id = c.account_id
            WHERE ca.subtype = 'bank')
      GROUP BY l.tenant_id, l.company_id, l.account_id, l.date
      ORDER BY l.tenant_id, l.company_id, l.account_id, l.date
    ON CONFLICT (tenant_id, company_id, account_id, date)
      DO UPDATE SET amount = b.amount + excluded.amount;

  -- Receivable and payable accounts keep open items: a line's item is its open_item_id, or
  -- its own entry when it names none.
  INSERT INTO open_items AS o
      (tenant_id, company_id, account_id, item_id, contact_id, due_date, first_date, last_date, balance)
    SELECT l.tenant_id, l.company_id, l.account_id, coalesce(l.open_item_id, l.entry_id),
           max(l.contact_id::text)::uuid, min(l.due_date), min(l.date), max(l.date), sum(l.debit - l.credit)
      FROM new_lines l
      JOIN accounts a ON a.tenant_id = l.tenant_id AND a.company_id = l.company_id AND a.id = l.account_id
      WHERE a.subtype IN ('receivable', 'payable')
      GROUP BY l.tenant_id, l.company_id, l.account_id, coalesce(l.open_item_id, l.entry_id)
      ORDER BY l.tenant_id, l.company_id, l.account_id, coalesce(l.open_item_id, l.entry_id)
    ON CONFLICT (tenant_id, company_id, account_id, item_id)
      DO UPDATE SET contact_id = coalesce(o.contact_id, excluded.contact_id),
                    due_date = least(o.due_date, excluded.due_date),
                    first_date = least(o.first_date, excluded.first_date),
                    last_date = greatest(o.last_date, excluded.last_date),
                    balance = o.balance + excluded.balance;
  RETURN NULL;
END
$$;
CREATE TRIGGER journal_lines_balances AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION bp_maintain_balances();
CREATE TRIGGER journal_lines_balanced AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION bp_check_lines_balanced();

-- The South African default chart, seeded into every company (idempotent: a company that
-- has it keeps what it has). Codes: 1 assets, 2 liabilities, 3 equity, 4 income, 5 cost of
-- sales, 6 expenses.
CREATE FUNCTION bp_seed_default_chart(p_tenant uuid, p_company uuid) RETURNS void
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
        ('3200', 'Drawings', 'equity', 'equity', NULL, false),
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
$$;

-- Companies made before the ledger existed get the chart too.
SELECT bp_seed_default_chart(tenant_id, id) FROM companies;
