-- Forfeited deposits (issue 14, item 7): a deposit the customer forfeits becomes consideration for
-- a supply (VAT Act s1, "consideration" includes a deposit once forfeited), so its VAT is output
-- tax then: deposit_forfeits holds each forfeit with its VAT part (the tax fraction of what
-- remained of the deposit, when the company is registered on the forfeit date) and its entry.
-- The deposit is `forfeited` (the status is in 0027's check).
--
-- The chart: 4960 Forfeited deposits (income / other_income, system key forfeited_deposits) is
-- added to every company, and to every company made later, by a trigger on the bad debts
-- account's insert, as 0025 adds 4950 (the seeding functions of 0008 and 0022 are not redefined).
CREATE TABLE deposit_forfeits (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  deposit_id uuid NOT NULL,
  date date NOT NULL,
  -- what remained of the deposit (VAT included), and the VAT part of it
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  vat_amount numeric(18, 2) NOT NULL CHECK (vat_amount >= 0 AND vat_amount < amount),
  vat_rate numeric(6, 3),
  reason text NOT NULL,
  entry_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, deposit_id) REFERENCES invoices (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id)
);
-- A deposit is forfeited once.
CREATE UNIQUE INDEX deposit_forfeits_once ON deposit_forfeits (tenant_id, deposit_id);
SELECT bp_tenant_table('deposit_forfeits');
CREATE TRIGGER deposit_forfeits_touch BEFORE UPDATE ON deposit_forfeits
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE FUNCTION bp_seed_forfeited_deposits(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key, is_control)
    SELECT p_tenant, gen_random_uuid(), p_company,
           CASE WHEN EXISTS (SELECT 1 FROM accounts c
                              WHERE c.tenant_id = p_tenant AND c.company_id = p_company AND lower(c.code) = '4960')
                THEN '4960.1' ELSE '4960' END,
           'Forfeited deposits', 'income', 'other_income', 'forfeited_deposits', false
     WHERE NOT EXISTS (SELECT 1 FROM accounts a
                        WHERE a.tenant_id = p_tenant AND a.company_id = p_company
                          AND a.system_key = 'forfeited_deposits');
$$;

CREATE FUNCTION bp_forfeited_deposits_follows() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bp_seed_forfeited_deposits(NEW.tenant_id, NEW.company_id);
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_forfeited_deposits AFTER INSERT ON accounts
  FOR EACH ROW WHEN (NEW.system_key = 'bad_debts') EXECUTE FUNCTION bp_forfeited_deposits_follows();

-- Existing companies (row-level security lifted for this statement only, as in 0022 and 0025).
ALTER TABLE accounts NO FORCE ROW LEVEL SECURITY;
SELECT bp_seed_forfeited_deposits(tenant_id, company_id) FROM accounts WHERE system_key = 'bad_debts';
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;
