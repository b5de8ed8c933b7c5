-- Outbound webhooks: a business's subscriptions. Deliveries and their attempts come with
-- the delivery worker.
--
-- The signing secret is kept as issued ("whsec_<base64>"): every delivery is signed with
-- it, so it cannot be a one-way hash like a key's. It is answered once by the API and never
-- listed again.
CREATE TABLE webhooks (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  url text NOT NULL,
  event_types text[] NOT NULL CHECK (cardinality(event_types) >= 1),
  description text,
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- why it is off: 'manual' or 'failing' (five consecutive failed events)
  disabled_reason text CHECK (disabled_reason IN ('manual', 'failing')),
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_by_type text NOT NULL CHECK (created_by_type IN ('user', 'api_key')),
  created_by uuid NOT NULL,
  -- a webhook added with a key stops sending when that key is revoked
  created_by_key_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, created_by_key_id) REFERENCES api_keys (tenant_id, id),
  CHECK ((created_by_type = 'api_key') = (created_by_key_id IS NOT NULL))
);
CREATE INDEX webhooks_live ON webhooks (tenant_id) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('webhooks');
