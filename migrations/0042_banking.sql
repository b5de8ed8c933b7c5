-- Banking (issue 17): the company's bank accounts, the statements read into them, and the
-- bank transactions those statements (or a bank feed) carry.
--
--   * bank_accounts: one row per ledger account of subtype 'bank', sharing its id. The ledger
--     account is the bank account's name, code and active flag; this row adds what the bank
--     knows (bank, account number, branch code, currency), the opening balance and the balance
--     of the last statement read. Sharing the id keeps every existing `bankAccountId` (an
--     invoice or bill payment's, a payment run's) meaning the same thing. A trigger on accounts
--     creates the row for every bank account however it was made (the chart's seed, POST
--     /api/accounts, a subtype changed to bank, POST /api/bank-accounts).
--   * bank_statements: one per file read (or feed sync), with what it said of its balances.
--   * bank_transactions: the lines of the bank account as the bank reports them, amount signed
--     (+ money in, - money out). "Never twice": a line is the nth occurrence of its date and
--     amount in its account (sequence), unique among the lines that count (posted, not
--     superseded). A file or a feed that brings a date and amount the account already holds n
--     times adds only what is beyond n; two genuine identical lines of one day are 1 and 2.
--     Pending lines (a feed's provisional ones) do not count: they are superseded when posted.
CREATE TABLE bank_accounts (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  bank text NOT NULL DEFAULT 'other'
    CHECK (bank IN ('fnb', 'absa', 'standard_bank', 'nedbank', 'capitec', 'investec', 'other')),
  account_number text CHECK (account_number ~ '^[0-9]{4,20}$'),
  branch_code text CHECK (branch_code ~ '^[0-9]{6}$'),
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  opening_balance numeric(20, 2) NOT NULL DEFAULT 0,
  opening_date date,
  opening_entry_id uuid,
  statement_balance numeric(20, 2),
  statement_date date,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, id) REFERENCES accounts (tenant_id, company_id, id)
);
SELECT bp_tenant_table('bank_accounts');
CREATE TRIGGER bank_accounts_touch BEFORE UPDATE ON bank_accounts
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE FUNCTION bp_bank_account_of_account() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subtype = 'bank' THEN
    INSERT INTO bank_accounts (tenant_id, id, company_id)
      VALUES (NEW.tenant_id, NEW.id, NEW.company_id)
      ON CONFLICT (tenant_id, id) DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER accounts_bank_account AFTER INSERT OR UPDATE OF subtype ON accounts
  FOR EACH ROW EXECUTE FUNCTION bp_bank_account_of_account();

INSERT INTO bank_accounts (tenant_id, id, company_id)
  SELECT tenant_id, id, company_id FROM accounts WHERE subtype = 'bank'
  ON CONFLICT (tenant_id, id) DO NOTHING;

CREATE TABLE bank_statements (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  bank_account_id uuid NOT NULL,
  source text NOT NULL CHECK (source IN ('file', 'feed')),
  format text CHECK (format IN ('ofx', 'camt053', 'csv')),
  profile text,
  file_name text,
  file_sha256 text,
  file_size integer,
  period_from date,
  period_to date,
  opening_balance numeric(20, 2),
  closing_balance numeric(20, 2),
  balance_check text NOT NULL DEFAULT 'not_given' CHECK (balance_check IN ('ok', 'gap', 'not_given')),
  balance_gap numeric(20, 2),
  rows_read integer NOT NULL DEFAULT 0,
  rows_new integer NOT NULL DEFAULT 0,
  rows_duplicate integer NOT NULL DEFAULT 0,
  rows_error integer NOT NULL DEFAULT 0,
  -- the answer as it was given: duplicates with their reasons, errors per row
  report jsonb NOT NULL DEFAULT '{}',
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES bank_accounts (tenant_id, company_id, id)
);
CREATE INDEX bank_statements_by_account ON bank_statements (tenant_id, company_id, bank_account_id, created_at);
CREATE INDEX bank_statements_by_file ON bank_statements (tenant_id, bank_account_id, file_sha256);
SELECT bp_tenant_table('bank_statements');
CREATE TRIGGER bank_statements_touch BEFORE UPDATE ON bank_statements
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE bank_transactions (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  bank_account_id uuid NOT NULL,
  date date NOT NULL,
  value_date date,
  amount numeric(20, 2) NOT NULL CHECK (amount <> 0),
  description text NOT NULL DEFAULT '',
  reference text,
  payee text,
  -- the source's own id (OFX FITID, CAMT AcctSvcrRef, a feed's uuid): shown, never merged on
  external_id text,
  running_balance numeric(20, 2),
  source text NOT NULL CHECK (source IN ('file', 'feed')),
  statement_id uuid,
  -- the row's place in its file (1-based, after skipped rows), for the answer's per-row report
  source_line integer,
  sequence integer NOT NULL CHECK (sequence >= 1),
  pending boolean NOT NULL DEFAULT false,
  superseded_at timestamptz,
  superseded_by uuid,
  status text NOT NULL DEFAULT 'unreconciled' CHECK (status IN ('unreconciled', 'reconciled', 'excluded')),
  excluded_reason text,
  reconciled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES bank_accounts (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, statement_id) REFERENCES bank_statements (tenant_id, company_id, id)
);
-- The "never twice" key: the nth line of a date and amount in the account, among those that count.
CREATE UNIQUE INDEX bank_transactions_occurrence ON bank_transactions
  (tenant_id, bank_account_id, date, amount, sequence)
  WHERE NOT pending AND superseded_at IS NULL;
CREATE INDEX bank_transactions_by_date ON bank_transactions (tenant_id, company_id, bank_account_id, date, id);
CREATE INDEX bank_transactions_unreconciled ON bank_transactions (tenant_id, company_id, bank_account_id, date)
  WHERE status = 'unreconciled' AND superseded_at IS NULL;
CREATE INDEX bank_transactions_by_update ON bank_transactions (tenant_id, company_id, updated_at, id);
CREATE INDEX bank_transactions_by_statement ON bank_transactions (tenant_id, statement_id);
SELECT bp_tenant_table('bank_transactions');
CREATE TRIGGER bank_transactions_touch BEFORE UPDATE ON bank_transactions
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
