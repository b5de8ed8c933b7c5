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

-- Posting in bulk (an import, a year of bank lines, the scale benchmark) met two statements of
-- 0008's triggers whose cost grew with the square of an INSERT's lines: the planner cannot know
-- how a transition table's rows join, guessed a handful, and chose nested loops that rescan the
-- new lines (or the entry's lines) once per line. Seeding 20 000 lines in one statement took
-- minutes on PostgreSQL instead of a second. The two are rewritten so that no plan can be
-- quadratic: entries that move cash are found with one window over the new lines, and each
-- touched entry's balance is read through its index (journal_lines_by_entry) by a lateral join.
CREATE OR REPLACE FUNCTION bp_check_lines_balanced() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  bad uuid;
BEGIN
  SELECT e.entry_id INTO bad
    FROM (SELECT DISTINCT tenant_id, entry_id FROM new_lines) e
    CROSS JOIN LATERAL (
      SELECT sum(l.debit) AS d, sum(l.credit) AS c
        FROM journal_lines l
        WHERE l.tenant_id = e.tenant_id AND l.entry_id = e.entry_id
    ) s
    WHERE s.d <> s.c
    LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % does not balance', bad USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION bp_maintain_balances() RETURNS trigger
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

  -- An entry's lines arrive in one INSERT (the posting service writes them so), so the entries
  -- that move cash can be told from the new lines alone: one pass marks each line with whether
  -- its entry has a bank line.
  INSERT INTO cash_flow_balances AS b (tenant_id, company_id, account_id, date, amount)
    SELECT x.tenant_id, x.company_id, x.account_id, x.date, sum(x.credit - x.debit)
      FROM (
        SELECT l.tenant_id, l.company_id, l.account_id, l.date, l.debit, l.credit,
               a.subtype = 'bank' AS is_bank,
               bool_or(a.subtype = 'bank') OVER (PARTITION BY l.tenant_id, l.entry_id) AS moves_cash
          FROM new_lines l
          JOIN LATERAL (
            SELECT ac.subtype FROM accounts ac
              WHERE ac.tenant_id = l.tenant_id AND ac.company_id = l.company_id AND ac.id = l.account_id
          ) a ON true
      ) x
      WHERE x.moves_cash AND NOT x.is_bank
      GROUP BY x.tenant_id, x.company_id, x.account_id, x.date
      ORDER BY x.tenant_id, x.company_id, x.account_id, x.date
    ON CONFLICT (tenant_id, company_id, account_id, date)
      DO UPDATE SET amount = b.amount + excluded.amount;

  -- Receivable and payable accounts keep open items: a line's item is its open_item_id, or
  -- its own entry when it names none.
  INSERT INTO open_items AS o
      (tenant_id, company_id, account_id, item_id, contact_id, due_date, first_date, last_date, balance)
    SELECT l.tenant_id, l.company_id, l.account_id, coalesce(l.open_item_id, l.entry_id),
           max(l.contact_id::text)::uuid, min(l.due_date), min(l.date), max(l.date), sum(l.debit - l.credit)
      FROM new_lines l
      JOIN LATERAL (
        SELECT ac.subtype FROM accounts ac
          WHERE ac.tenant_id = l.tenant_id AND ac.company_id = l.company_id AND ac.id = l.account_id
      ) a ON true
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
