-- Bank feeds (issue 17): a bank account connected to the customer's bank (Investec
-- Programmable Banking) with the customer's read-only keys, synced on a schedule and on demand.
--   * the keys (client id, client secret, API key) are sealed at rest (src/platform/secrets,
--     SECRETS_KEY) and never answered back;
--   * one live feed per bank account (a unique index over those not disconnected); a
--     disconnected feed is kept (soft) with the lines it brought;
--   * the sync's state: last_sync_status, last_error, consecutive_failures, needs_attention with
--     attention_reason (3 failures in a row, or at once when the bank refuses the keys),
--     next_attempt_at (the schedule, or the backoff after a failure; NULL: no automatic sync
--     until a person acts, e.g. replaces revoked keys);
--   * bank_transactions.feed_id names the feed a line came from (external_id holds the
--     bank's uuid of the line);
--   * the job worker looks for due feeds across tenants as the login role: the policy
--     bank_feeds_due shows it (and only it) the live feeds due by the time its transaction
--     sets in app.bank_feeds_due_before; without that setting it matches nothing.
CREATE TABLE bank_feeds (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  bank_account_id uuid NOT NULL,
  provider text NOT NULL DEFAULT 'investec' CHECK (provider IN ('investec')),
  investec_account_id text NOT NULL CHECK (btrim(investec_account_id) <> ''),
  investec_account_name text NOT NULL DEFAULT '',
  investec_account_masked text NOT NULL DEFAULT '',
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disconnected')),
  client_id_sealed text NOT NULL,
  client_secret_sealed text NOT NULL,
  api_key_sealed text NOT NULL,
  sync_from date NOT NULL,
  last_sync_at timestamptz,
  last_sync_status text CHECK (last_sync_status IN ('ok', 'failed')),
  last_error text,
  consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  needs_attention boolean NOT NULL DEFAULT false,
  attention_reason text,
  next_attempt_at timestamptz,
  sync_count integer NOT NULL DEFAULT 0,
  total_imported integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  disconnected_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, bank_account_id) REFERENCES bank_accounts (tenant_id, company_id, id),
  CHECK ((status = 'disconnected') = (disconnected_at IS NOT NULL))
);
CREATE UNIQUE INDEX bank_feeds_one_live ON bank_feeds (tenant_id, bank_account_id) WHERE status = 'active';
CREATE INDEX bank_feeds_by_company ON bank_feeds (tenant_id, company_id, created_at, id);
CREATE INDEX bank_feeds_due ON bank_feeds (next_attempt_at) WHERE status = 'active';
SELECT bp_tenant_table('bank_feeds');
CREATE TRIGGER bank_feeds_touch BEFORE UPDATE ON bank_feeds
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE POLICY bank_feeds_due ON bank_feeds FOR SELECT TO CURRENT_USER
  USING (status = 'active'
    AND next_attempt_at <= NULLIF(current_setting('app.bank_feeds_due_before', true), '')::timestamptz);

ALTER TABLE bank_transactions ADD COLUMN feed_id uuid;
ALTER TABLE bank_transactions ADD CONSTRAINT bank_transactions_feed
  FOREIGN KEY (tenant_id, company_id, feed_id) REFERENCES bank_feeds (tenant_id, company_id, id);
CREATE INDEX bank_transactions_by_feed ON bank_transactions (tenant_id, feed_id, pending)
  WHERE feed_id IS NOT NULL AND superseded_at IS NULL;
