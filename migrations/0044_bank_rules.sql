-- Bank rules (issue 17): how the company codes its bank lines without typing the same thing
-- every month. A rule has conditions on the line (description, reference, payee, amount,
-- direction; all or any of them) and actions (account, contact, tax code, description, cost
-- centre, or a split by percentages). Active rules run in priority order (lower first) on every
-- import and when re-run; the first that matches codes the line; stop_processing ends there,
-- otherwise later matching rules fill only what it left unset.
--
-- The coding lives on the bank line itself (coded_*), with who set it: a rule (rule_id, the
-- first rule that touched it, and when) or a person (PATCH /api/bank-transactions/{id}). A
-- person's coding is never overwritten by a rule; a reconciled line is never recoded.
-- Conditions and actions are jsonb in the API's own shape (amounts as decimal strings): they
-- are read whole, once per run, never queried into.
CREATE TABLE bank_rules (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  priority integer NOT NULL,
  match text NOT NULL DEFAULT 'all' CHECK (match IN ('all', 'any')),
  conditions jsonb NOT NULL,
  actions jsonb NOT NULL,
  stop_processing boolean NOT NULL DEFAULT true,
  -- null: the rule applies to every bank account of the company
  bank_account_id uuid,
  is_active boolean NOT NULL DEFAULT true,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES bank_accounts (tenant_id, company_id, id)
);
CREATE INDEX bank_rules_by_priority ON bank_rules (tenant_id, company_id, priority, created_at, id)
  WHERE deleted_at IS NULL;
SELECT bp_tenant_table('bank_rules');
CREATE TRIGGER bank_rules_touch BEFORE UPDATE ON bank_rules
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

ALTER TABLE bank_transactions
  ADD COLUMN coded_by text CHECK (coded_by IN ('rule', 'person')),
  ADD COLUMN rule_id uuid,
  ADD COLUMN rule_applied_at timestamptz,
  ADD COLUMN coded_account_id uuid,
  ADD COLUMN coded_contact_id uuid,
  ADD COLUMN coded_tax_code text,
  ADD COLUMN coded_description text,
  ADD COLUMN coded_cost_centre_id uuid,
  -- [{ accountId, taxCode, percent, description?, costCentreId? }], percents summing to 100
  ADD COLUMN coded_splits jsonb,
  ADD FOREIGN KEY (tenant_id, company_id, rule_id) REFERENCES bank_rules (tenant_id, company_id, id),
  ADD FOREIGN KEY (tenant_id, company_id, coded_account_id) REFERENCES accounts (tenant_id, company_id, id),
  ADD FOREIGN KEY (tenant_id, coded_contact_id) REFERENCES contacts (tenant_id, id),
  ADD FOREIGN KEY (tenant_id, company_id, coded_cost_centre_id) REFERENCES cost_centres (tenant_id, company_id, id);
-- The lines a rule coded (re-running one rule, or a rule's lines on its page).
CREATE INDEX bank_transactions_by_rule ON bank_transactions (tenant_id, rule_id) WHERE rule_id IS NOT NULL;
