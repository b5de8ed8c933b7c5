-- Sales CRM, external ingest and metered monthly billing (issue 19). CRM is tenant-wide, like
-- contacts: leads and opportunities belong to the business, not to one company (a won
-- opportunity's quote names its company when it is made).
--
--   * crm_leads: people or businesses not yet customers. email_key (lower-cased e-mail) and
--     phone_e164 are the import's de-duplication keys, looked up by index; external_ref makes
--     /external/leads idempotent (unique among the tenant's leads, deleted or not, so a replay
--     always finds the lead it made). consent_channels: the marketing channels the person agreed
--     to when captured (a lead has no contact yet, so no consent history of its own).
--   * crm_pipeline_stages: the tenant's pipeline, in order, each with a win probability.
--   * crm_opportunities with crm_opportunity_lines (a product or free text, quantity, price,
--     discount); won or lost with a reason; a won one names the quote made from it.
--   * crm_activities: calls, meetings, tasks and notes against a lead, opportunity or contact.
--   * crm_teams and crm_targets: a target per user or team and period, of value won or count.
--   * crm_campaigns and crm_campaign_members (a lead or a contact each).
--   * crm_lead_imports: a record of each CSV import with its counts.
--   * contact_transactions: usage or charges recorded against a contact (the spec's shape).
--   * billing_aggregates: one amount per contact and month, posted by
--     /admin/billing/run-monthly, updated in place while pending, rolled into a draft invoice on
--     the first of the month.
-- Nothing is hard-deleted: deleted_at where a record can be removed.

CREATE TABLE crm_pipeline_stages (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  -- the chance an opportunity at this stage is won, in percent
  probability numeric(5, 2) NOT NULL CHECK (probability BETWEEN 0 AND 100),
  position integer NOT NULL CHECK (position >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX crm_pipeline_stages_name ON crm_pipeline_stages (tenant_id, lower(name)) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('crm_pipeline_stages');
CREATE TRIGGER crm_pipeline_stages_touch BEFORE UPDATE ON crm_pipeline_stages
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- The pipeline a business starts with (probabilities as Pipedrive's and HubSpot's default
-- pipelines use them): written with every new tenant, and now for the tenants there are, so a
-- stage list is never empty until the business empties it. Won and lost are an opportunity's
-- status, not stages.
CREATE FUNCTION bp_seed_crm_stages(p_tenant uuid) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO crm_pipeline_stages (tenant_id, id, name, probability, position)
  SELECT p_tenant, gen_random_uuid(), s.name, s.probability, s.position
    FROM (VALUES ('Qualification', 10, 0), ('Needs analysis', 25, 1), ('Proposal', 50, 2), ('Negotiation', 75, 3))
         AS s(name, probability, position);
$$;
CREATE FUNCTION bp_seed_crm_stages_of_new_tenant() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bp_seed_crm_stages(NEW.id);
  RETURN NULL;
END;
$$;
CREATE TRIGGER tenants_seed_crm_stages AFTER INSERT ON tenants
  FOR EACH ROW EXECUTE FUNCTION bp_seed_crm_stages_of_new_tenant();
SELECT bp_seed_crm_stages(id) FROM tenants;

CREATE TABLE crm_leads (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  company_name text,
  email text,
  email_key text GENERATED ALWAYS AS (lower(btrim(email))) STORED,
  phone text,
  phone_e164 text CHECK (phone_e164 ~ '^\+[1-9][0-9]{6,14}$'),
  source text,
  status text NOT NULL DEFAULT 'new'
    CHECK (status IN ('new', 'contacted', 'qualified', 'unqualified', 'converted')),
  owner_id uuid,
  estimated_value numeric(20, 2) CHECK (estimated_value >= 0),
  notes text,
  external_ref text CHECK (external_ref IS NULL OR btrim(external_ref) <> ''),
  tags text[] NOT NULL DEFAULT '{}',
  consent_channels text[] NOT NULL DEFAULT '{}',
  -- set on conversion: the contact made or linked, and the opportunity made with it
  contact_id uuid,
  opportunity_id uuid,
  converted_at timestamptz,
  import_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, owner_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  CHECK ((status = 'converted') = (converted_at IS NOT NULL))
);
CREATE UNIQUE INDEX crm_leads_external_ref ON crm_leads (tenant_id, external_ref) WHERE external_ref IS NOT NULL;
CREATE INDEX crm_leads_email ON crm_leads (tenant_id, email_key) WHERE deleted_at IS NULL AND email_key IS NOT NULL;
CREATE INDEX crm_leads_phone ON crm_leads (tenant_id, phone_e164) WHERE deleted_at IS NULL AND phone_e164 IS NOT NULL;
CREATE INDEX crm_leads_list ON crm_leads (tenant_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX crm_leads_updated ON crm_leads (tenant_id, updated_at, id);
SELECT bp_tenant_table('crm_leads');
CREATE TRIGGER crm_leads_touch BEFORE UPDATE ON crm_leads
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE crm_opportunities (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  lead_id uuid,
  contact_id uuid,
  stage_id uuid NOT NULL,
  owner_id uuid,
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  -- the lines' total, kept with them
  amount numeric(20, 2) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  expected_close_date date,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost')),
  close_reason text,
  closed_at timestamptz,
  -- the quote a won opportunity became
  quote_id uuid,
  quote_company_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, lead_id) REFERENCES crm_leads (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, stage_id) REFERENCES crm_pipeline_stages (tenant_id, id),
  FOREIGN KEY (tenant_id, owner_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, quote_company_id, quote_id) REFERENCES invoices (tenant_id, company_id, id),
  CHECK ((status = 'open') = (closed_at IS NULL))
);
CREATE INDEX crm_opportunities_list ON crm_opportunities (tenant_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX crm_opportunities_stage ON crm_opportunities (tenant_id, stage_id) WHERE deleted_at IS NULL;
CREATE INDEX crm_opportunities_updated ON crm_opportunities (tenant_id, updated_at, id);
SELECT bp_tenant_table('crm_opportunities');
CREATE TRIGGER crm_opportunities_touch BEFORE UPDATE ON crm_opportunities
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
ALTER TABLE crm_leads
  ADD CONSTRAINT crm_leads_opportunity FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm_opportunities (tenant_id, id);

-- Lines are replaced whole by a change (PATCH lines), and bp_app deletes nothing: the lines
-- replaced are retired (retired_at), as a draft invoice's are, so a line has an id of its own and
-- its number is unique among the live lines only.
CREATE TABLE crm_opportunity_lines (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  opportunity_id uuid NOT NULL,
  line_no integer NOT NULL CHECK (line_no >= 1),
  product_id uuid,
  description text NOT NULL CHECK (btrim(description) <> ''),
  quantity numeric(20, 4) NOT NULL CHECK (quantity > 0),
  unit_price numeric(20, 2) NOT NULL CHECK (unit_price >= 0),
  discount_percent numeric(5, 2) NOT NULL DEFAULT 0 CHECK (discount_percent BETWEEN 0 AND 100),
  amount numeric(20, 2) NOT NULL CHECK (amount >= 0),
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm_opportunities (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id)
);
CREATE UNIQUE INDEX crm_opportunity_lines_live ON crm_opportunity_lines (tenant_id, opportunity_id, line_no)
  WHERE retired_at IS NULL;
SELECT bp_tenant_table('crm_opportunity_lines');

CREATE TABLE crm_activities (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('call', 'meeting', 'task', 'note')),
  subject text NOT NULL CHECK (btrim(subject) <> ''),
  notes text,
  due_at timestamptz,
  done_at timestamptz,
  owner_id uuid,
  lead_id uuid,
  opportunity_id uuid,
  contact_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, owner_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, lead_id) REFERENCES crm_leads (tenant_id, id),
  FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm_opportunities (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  -- against exactly one of a lead, an opportunity or a contact
  CHECK (num_nonnulls(lead_id, opportunity_id, contact_id) = 1)
);
CREATE INDEX crm_activities_list ON crm_activities (tenant_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX crm_activities_updated ON crm_activities (tenant_id, updated_at, id);
SELECT bp_tenant_table('crm_activities');
CREATE TRIGGER crm_activities_touch BEFORE UPDATE ON crm_activities
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE crm_teams (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  member_ids uuid[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
SELECT bp_tenant_table('crm_teams');
CREATE TRIGGER crm_teams_touch BEFORE UPDATE ON crm_teams
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE crm_targets (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  user_id uuid,
  team_id uuid,
  period_start date NOT NULL,
  period_end date NOT NULL,
  metric text NOT NULL CHECK (metric IN ('value', 'count')),
  target numeric(20, 2) NOT NULL CHECK (target > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, team_id) REFERENCES crm_teams (tenant_id, id),
  CHECK (num_nonnulls(user_id, team_id) = 1),
  CHECK (period_end >= period_start)
);
SELECT bp_tenant_table('crm_targets');
CREATE TRIGGER crm_targets_touch BEFORE UPDATE ON crm_targets
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE crm_campaigns (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  -- the marketing channel; the same names as contact_consents.channel
  channel text NOT NULL CHECK (channel IN ('email', 'sms', 'whatsapp', 'phone', 'post')),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'completed')),
  description text,
  starts_on date,
  ends_on date,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
SELECT bp_tenant_table('crm_campaigns');
CREATE TRIGGER crm_campaigns_touch BEFORE UPDATE ON crm_campaigns
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE crm_campaign_members (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  campaign_id uuid NOT NULL,
  lead_id uuid,
  contact_id uuid,
  added_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES crm_campaigns (tenant_id, id),
  FOREIGN KEY (tenant_id, lead_id) REFERENCES crm_leads (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  CHECK (num_nonnulls(lead_id, contact_id) = 1)
);
CREATE UNIQUE INDEX crm_campaign_members_lead ON crm_campaign_members (tenant_id, campaign_id, lead_id)
  WHERE lead_id IS NOT NULL AND removed_at IS NULL;
CREATE UNIQUE INDEX crm_campaign_members_contact ON crm_campaign_members (tenant_id, campaign_id, contact_id)
  WHERE contact_id IS NOT NULL AND removed_at IS NULL;
SELECT bp_tenant_table('crm_campaign_members');

CREATE TABLE crm_lead_imports (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  file_name text,
  encoding text NOT NULL,
  row_count integer NOT NULL CHECK (row_count >= 0),
  created_count integer NOT NULL CHECK (created_count >= 0),
  updated_count integer NOT NULL CHECK (updated_count >= 0),
  duplicate_count integer NOT NULL CHECK (duplicate_count >= 0),
  error_count integer NOT NULL CHECK (error_count >= 0),
  -- every refused row: [{row, field, reason}]
  errors jsonb NOT NULL DEFAULT '[]',
  imported_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
SELECT bp_tenant_table('crm_lead_imports');
ALTER TABLE crm_leads
  ADD CONSTRAINT crm_leads_import FOREIGN KEY (tenant_id, import_id) REFERENCES crm_lead_imports (tenant_id, id);

CREATE TABLE contact_transactions (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  contact_id uuid NOT NULL,
  description text NOT NULL CHECK (btrim(description) <> ''),
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  external_ref text CHECK (external_ref IS NULL OR btrim(external_ref) <> ''),
  metadata jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'invoiced', 'void')),
  invoice_id uuid,
  invoice_company_id uuid,
  quantity numeric(20, 4) NOT NULL DEFAULT 1 CHECK (quantity > 0),
  unit_price numeric(20, 4) NOT NULL,
  amount numeric(20, 2) NOT NULL,
  vat_rate numeric(5, 2) NOT NULL DEFAULT 15 CHECK (vat_rate BETWEEN 0 AND 100),
  occurred_at timestamptz NOT NULL,
  invoiced_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_company_id, invoice_id) REFERENCES invoices (tenant_id, company_id, id),
  CHECK ((status = 'invoiced') = (invoice_id IS NOT NULL))
);
CREATE UNIQUE INDEX contact_transactions_external_ref ON contact_transactions (tenant_id, external_ref)
  WHERE external_ref IS NOT NULL;
CREATE INDEX contact_transactions_by_contact ON contact_transactions (tenant_id, contact_id, occurred_at, id);
SELECT bp_tenant_table('contact_transactions');
CREATE TRIGGER contact_transactions_touch BEFORE UPDATE ON contact_transactions
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE billing_aggregates (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  contact_id uuid NOT NULL,
  -- the first day of the month billed
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  amount numeric(20, 2) NOT NULL CHECK (amount >= 0),
  source text NOT NULL CHECK (btrim(source) <> ''),
  description text NOT NULL CHECK (btrim(description) <> ''),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'invoiced')),
  invoice_id uuid,
  invoice_company_id uuid,
  invoiced_at timestamptz,
  -- the key that posted it last
  api_key_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, contact_id, month),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_company_id, invoice_id) REFERENCES invoices (tenant_id, company_id, id),
  CHECK ((status = 'invoiced') = (invoice_id IS NOT NULL))
);
CREATE INDEX billing_aggregates_pending ON billing_aggregates (tenant_id, month) WHERE status = 'pending';
SELECT bp_tenant_table('billing_aggregates');
CREATE TRIGGER billing_aggregates_touch BEFORE UPDATE ON billing_aggregates
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- The monthly roll (transactions/monthly-roll.ts) looks for tenants with work across tenants as
-- the login role, as the bank-feed sync does (0046): these policies show it, and only it, the
-- pending aggregates of months before, and the pending transactions that occurred before, the
-- month start (an instant, 00:00 UTC) its own transaction sets in app.billing_roll_before;
-- without it they match nothing.
CREATE POLICY billing_aggregates_due ON billing_aggregates FOR SELECT TO CURRENT_USER
  USING (status = 'pending'
    AND month < (NULLIF(current_setting('app.billing_roll_before', true), '')::timestamptz AT TIME ZONE 'UTC')::date);
CREATE POLICY contact_transactions_due ON contact_transactions FOR SELECT TO CURRENT_USER
  USING (status = 'pending'
    AND occurred_at < NULLIF(current_setting('app.billing_roll_before', true), '')::timestamptz);
CREATE INDEX contact_transactions_pending ON contact_transactions (tenant_id, occurred_at) WHERE status = 'pending';
