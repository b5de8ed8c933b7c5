-- Online payments (issue 18): two payment gateways, payment links, and the inbox of the
-- gateways' notifications.
--
--   * payment_gateway_accounts: a company's credentials at one gateway (A: PayFast-style
--     merchant id, merchant key, passphrase; B: Yoco-style secret key and webhook secret),
--     sealed at rest (src/platform/secrets, SECRETS_KEY) and never answered back. One row per
--     company and gateway; disconnecting clears the credentials and keeps the row. Gateway A's
--     merchant id is kept plain: the ITN names it, and it is unique within a tenant (one tenant
--     may hold several merchants, one per company). Each row has its clearing account, a
--     bank-subtype ledger account (so a bank_accounts row): online payments are recorded into
--     it, and the gateway's payout later moves them to the bank.
--   * payment_links: a link for what an invoice has due, opened at /pay/{token} without
--     signing in. The token carries the tenant (see links.token.ts) so the public page finds
--     the row under row-level security. Gateway B's checkout id and redirect address are kept.
--   * payment_notifications: the webhook inbox. Every notification a gateway posts for a
--     tenant, trusted or not, with its raw body, what was checked and the outcome.
--     trusted: the signature verified (and for gateway A, the gateway confirmed it). A trusted
--     payment is taken once: a unique index over the trusted ones per gateway payment id (and
--     per gateway B event id), so a replay is filed as a duplicate, never recorded twice.
CREATE TABLE payment_gateway_accounts (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  gateway text NOT NULL CHECK (gateway IN ('gatewaya', 'gatewayb')),
  merchant_id text CHECK (merchant_id IS NULL OR btrim(merchant_id) <> ''),
  merchant_key_sealed text,
  passphrase_sealed text,
  secret_key_sealed text,
  webhook_secret_sealed text,
  -- how far a paid amount may be from what is due and still be taken automatically
  amount_tolerance numeric(20, 2) NOT NULL DEFAULT 0.01 CHECK (amount_tolerance >= 0),
  clearing_account_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  UNIQUE (tenant_id, company_id, gateway),
  FOREIGN KEY (tenant_id, company_id, clearing_account_id) REFERENCES bank_accounts (tenant_id, company_id, id)
);
CREATE UNIQUE INDEX payment_gateway_accounts_merchant ON payment_gateway_accounts (tenant_id, merchant_id)
  WHERE merchant_id IS NOT NULL;
SELECT bp_tenant_table('payment_gateway_accounts');
CREATE TRIGGER payment_gateway_accounts_touch BEFORE UPDATE ON payment_gateway_accounts
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE payment_links (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  invoice_id uuid NOT NULL,
  gateway text NOT NULL CHECK (gateway IN ('gatewaya', 'gatewayb')),
  token text NOT NULL,
  amount numeric(20, 2) NOT NULL CHECK (amount > 0),
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  expires_at timestamptz NOT NULL,
  checkout_id text,
  checkout_url text,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  -- the token begins with the tenant's id: unique within the tenant is unique everywhere
  UNIQUE (tenant_id, token),
  FOREIGN KEY (tenant_id, company_id, invoice_id) REFERENCES invoices (tenant_id, company_id, id),
  CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
);
CREATE INDEX payment_links_by_invoice ON payment_links (tenant_id, invoice_id, created_at);
CREATE UNIQUE INDEX payment_links_checkout ON payment_links (tenant_id, gateway, checkout_id)
  WHERE checkout_id IS NOT NULL;
SELECT bp_tenant_table('payment_links');
CREATE TRIGGER payment_links_touch BEFORE UPDATE ON payment_links
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE payment_notifications (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  gateway text NOT NULL CHECK (gateway IN ('gatewaya', 'gatewayb')),
  -- known once the notification names (or its signature proves) the company's gateway account
  company_id uuid,
  gateway_account_id uuid,
  -- payment or refund; other: an event this service does not act on (filed, nothing done)
  kind text NOT NULL DEFAULT 'payment' CHECK (kind IN ('payment', 'refund', 'other')),
  -- gateway B's webhook-id (the event; retries keep it); gateway A has none
  event_id text,
  -- the gateway's id of the payment (A: pf_payment_id; B: the payment id) or of the refund
  external_payment_id text,
  -- what the gateway says of it (A: payment_status; B: the event type)
  gateway_status text,
  amount numeric(20, 2),
  fee numeric(20, 2),
  currency text,
  -- the reference the gateway echoed back (A: m_payment_id; B: the metadata's)
  reference text,
  link_id uuid,
  invoice_id uuid,
  raw_body text NOT NULL,
  content_type text,
  source_ip text,
  trusted boolean NOT NULL DEFAULT false,
  -- each check: { "check": "signature", "passed": true, "detail": "..." }
  checks jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'received'
    CHECK (status IN ('received', 'matched', 'review', 'refused', 'duplicate', 'dismissed')),
  outcome text NOT NULL DEFAULT '',
  -- the invoice payment recorded from it (matched), or reversed by it (a refund)
  payment_id uuid,
  -- the entry of the gateway's fee (Dr bank charges, Cr clearing), when it reported one
  fee_entry_id uuid,
  resolved_by_type text CHECK (resolved_by_type IN ('user', 'api_key', 'system')),
  resolved_by uuid,
  resolved_at timestamptz,
  dismiss_reason text,
  received_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, link_id) REFERENCES payment_links (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, invoice_id) REFERENCES invoices (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, payment_id) REFERENCES invoice_payments (tenant_id, id),
  FOREIGN KEY (tenant_id, gateway_account_id) REFERENCES payment_gateway_accounts (tenant_id, id)
);
-- A gateway's payment (or refund) is taken once, however often it is notified.
CREATE UNIQUE INDEX payment_notifications_payment_once
  ON payment_notifications (tenant_id, gateway, kind, external_payment_id)
  WHERE trusted AND external_payment_id IS NOT NULL AND status <> 'duplicate';
-- A gateway B event is handled once (its retries carry the same webhook-id).
CREATE UNIQUE INDEX payment_notifications_event_once ON payment_notifications (tenant_id, gateway, event_id)
  WHERE trusted AND event_id IS NOT NULL AND status <> 'duplicate';
CREATE INDEX payment_notifications_by_time ON payment_notifications (tenant_id, received_at DESC, id);
CREATE INDEX payment_notifications_by_status ON payment_notifications (tenant_id, status, received_at DESC);
CREATE INDEX payment_notifications_updated ON payment_notifications (tenant_id, updated_at, id);
SELECT bp_tenant_table('payment_notifications');
CREATE TRIGGER payment_notifications_touch BEFORE UPDATE ON payment_notifications
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
