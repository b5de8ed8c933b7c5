-- Cost centres (issue 16): a company's departments, branches or projects, named on bill,
-- expense and journal lines, so that the income statement can be read for one of them.
--
-- A journal line names at most one cost centre (of its own company: the foreign key carries
-- company_id). Its balances are kept like account_balances (0008): a statement trigger on
-- journal_lines upserts one row per cost centre, account and day from each INSERT's new lines,
-- in key order, in the posting's transaction; lines without a cost centre write nothing here.
-- The income statement for a cost centre reads at most accounts × days rows of one centre,
-- whatever the number of lines.
CREATE TABLE cost_centres (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  code text NOT NULL CHECK (btrim(code) <> ''),
  name text NOT NULL CHECK (btrim(name) <> ''),
  description text,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
CREATE UNIQUE INDEX cost_centres_code ON cost_centres (tenant_id, company_id, lower(btrim(code)));
SELECT bp_tenant_table('cost_centres');
CREATE TRIGGER cost_centres_touch BEFORE UPDATE ON cost_centres
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

ALTER TABLE journal_lines ADD COLUMN cost_centre_id uuid;
ALTER TABLE journal_lines ADD FOREIGN KEY (tenant_id, company_id, cost_centre_id)
  REFERENCES cost_centres (tenant_id, company_id, id);

-- A bill's lines name the company's cost centres (the bill's header one is the default).
ALTER TABLE bills ADD FOREIGN KEY (tenant_id, company_id, cost_centre_id)
  REFERENCES cost_centres (tenant_id, company_id, id);
ALTER TABLE bill_lines ADD FOREIGN KEY (tenant_id, cost_centre_id) REFERENCES cost_centres (tenant_id, id);
-- An expense claim's cost (0038 stored it without one, cost centres being built beside it).
ALTER TABLE expense_claims ADD FOREIGN KEY (tenant_id, company_id, cost_centre_id)
  REFERENCES cost_centres (tenant_id, company_id, id);

CREATE TABLE cost_centre_balances (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  cost_centre_id uuid NOT NULL,
  account_id uuid NOT NULL,
  date date NOT NULL,
  debit numeric(20, 2) NOT NULL DEFAULT 0,
  credit numeric(20, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, cost_centre_id, account_id, date),
  FOREIGN KEY (tenant_id, company_id, cost_centre_id) REFERENCES cost_centres (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, account_id) REFERENCES accounts (tenant_id, company_id, id)
);
CREATE INDEX cost_centre_balances_by_date ON cost_centre_balances (tenant_id, company_id, cost_centre_id, date);
SELECT bp_tenant_table('cost_centre_balances');

CREATE FUNCTION bp_maintain_cost_centre_balances() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cost_centre_balances AS b (tenant_id, company_id, cost_centre_id, account_id, date, debit, credit)
    SELECT tenant_id, company_id, cost_centre_id, account_id, date, sum(debit), sum(credit)
      FROM new_lines
      WHERE cost_centre_id IS NOT NULL
      GROUP BY tenant_id, company_id, cost_centre_id, account_id, date
      ORDER BY tenant_id, company_id, cost_centre_id, account_id, date
    ON CONFLICT (tenant_id, company_id, cost_centre_id, account_id, date)
      DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
  RETURN NULL;
END
$$;
CREATE TRIGGER journal_lines_cost_centre_balances AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION bp_maintain_cost_centre_balances();
