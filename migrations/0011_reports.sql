-- Reports: a monthly roll-up of the running account balances.
--
-- account_balances (0008) holds one row per account per day that moved, so a trial balance
-- as of a date, an income statement for a year or a balance sheet read up to accounts × days
-- rows: about 55 000 rows for a company with fifty busy accounts over three years, against a
-- few thousand for a small one, and the report's time grows with it. account_month_balances
-- holds the same debits and credits per account per calendar month (month = its first day).
-- A report sums whole months from here and only the days of a partly covered first or last
-- month from account_balances: at most accounts × (months + 62) rows, whatever the number of
-- lines or days (bench/RESULTS.md, "Reports at scale").
--
-- Maintained like account_balances: a statement trigger on journal_lines upserts one row per
-- account and month from each INSERT's new lines, in key order (concurrent postings lock rows
-- in the same order), in the posting's transaction. Posted lines never change, so nothing else
-- writes it.
CREATE TABLE account_month_balances (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  account_id uuid NOT NULL,
  -- the first day of the month
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  debit numeric(20, 2) NOT NULL DEFAULT 0,
  credit numeric(20, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, account_id, month),
  FOREIGN KEY (tenant_id, company_id, account_id) REFERENCES accounts (tenant_id, company_id, id)
);

-- Books posted before this migration: rolled up from the daily rows. Row-level security is
-- forced even on the tables' owner, who runs migrations with no tenant set, so it is lifted
-- for this one statement (inside the migration's transaction) and put back at once.
ALTER TABLE account_balances NO FORCE ROW LEVEL SECURITY;
INSERT INTO account_month_balances (tenant_id, company_id, account_id, month, debit, credit)
  SELECT tenant_id, company_id, account_id, date_trunc('month', date)::date, sum(debit), sum(credit)
    FROM account_balances
    GROUP BY tenant_id, company_id, account_id, date_trunc('month', date)::date;
ALTER TABLE account_balances FORCE ROW LEVEL SECURITY;

SELECT bp_tenant_table('account_month_balances');

CREATE FUNCTION bp_maintain_month_balances() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_month_balances AS b (tenant_id, company_id, account_id, month, debit, credit)
    SELECT tenant_id, company_id, account_id, date_trunc('month', date)::date, sum(debit), sum(credit)
      FROM new_lines
      GROUP BY tenant_id, company_id, account_id, date_trunc('month', date)::date
      ORDER BY tenant_id, company_id, account_id, date_trunc('month', date)::date
    ON CONFLICT (tenant_id, company_id, account_id, month)
      DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
  RETURN NULL;
END
$$;
CREATE TRIGGER journal_lines_month_balances AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION bp_maintain_month_balances();
