-- API keys (integrations) and the request principal that reads them.
--
-- A key is "<prefix><tenant id>.<key id>.<secret>"; only SHA-256 of the secret is stored.
-- The tenant id in clear lets the lookup run inside that tenant's transaction under
-- row-level security (no global key table), the key id makes it a primary-key read.
CREATE TABLE api_keys (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL,
  owner_type text NOT NULL CHECK (owner_type IN ('user', 'business')),
  -- the person a user key acts as; NULL for a business key
  user_id uuid,
  -- the role a business key acts with (built-in name or custom role id); NULL for a user key
  role text,
  created_by uuid NOT NULL,
  scopes text[] NOT NULL,
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  contact_id uuid,
  -- shown in lists: the key's first characters and its last four
  display_prefix text NOT NULL,
  last_four text NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id),
  CHECK ((owner_type = 'user' AND user_id IS NOT NULL AND role IS NULL)
      OR (owner_type = 'business' AND user_id IS NULL AND role IS NOT NULL))
);
CREATE INDEX api_keys_live ON api_keys (tenant_id, created_at) WHERE revoked_at IS NULL;
SELECT bp_tenant_table('api_keys');

-- The signed-in user's principal now also answers the tenant's plan, so the plan check
-- (MODULE_NOT_LICENSED) costs no extra round trip. The return type changes: drop, create.
DROP FUNCTION bp_request_principal(uuid, uuid, uuid, uuid);
CREATE FUNCTION bp_request_principal(p_tenant uuid, p_session uuid, p_user uuid, p_company uuid)
RETURNS TABLE (
  email text,
  name text,
  role text,
  active boolean,
  revoked_at timestamptz,
  expires_at timestamptz,
  permissions text[],
  company_ok boolean,
  plan text
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT u.email, u.name, u.role, u.active, s.revoked_at, s.expires_at,
    (SELECT r.permissions FROM roles r
      WHERE r.tenant_id = u.tenant_id AND r.id::text = u.role AND r.deleted_at IS NULL),
    CASE WHEN p_company IS NULL THEN NULL ELSE EXISTS (
      SELECT 1 FROM companies c WHERE c.tenant_id = p_tenant AND c.id = p_company AND c.deleted_at IS NULL)
    END,
    (SELECT t.plan FROM tenants t WHERE t.id = p_tenant)
  FROM sessions s
  JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
  WHERE s.tenant_id = p_tenant AND s.id = p_session AND s.user_id = p_user;
END
$$;

-- The principal of a token exchanged from an API key, read on every request so that
-- revoking the key (or deactivating a user key's owner) stops it on the next request.
-- acting_role: a user key acts with its owner's current role, a business key with its own.
CREATE FUNCTION bp_request_key_principal(p_tenant uuid, p_key uuid, p_company uuid)
RETURNS TABLE (
  name text,
  owner_type text,
  user_id uuid,
  acting_role text,
  owner_active boolean,
  scopes text[],
  rate_limit_per_minute integer,
  revoked_at timestamptz,
  permissions text[],
  company_ok boolean,
  plan text
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT k.name, k.owner_type, k.user_id, COALESCE(k.role, u.role),
    CASE WHEN k.owner_type = 'user' THEN u.active ELSE true END,
    k.scopes, k.rate_limit_per_minute, k.revoked_at,
    (SELECT r.permissions FROM roles r
      WHERE r.tenant_id = k.tenant_id AND r.id::text = COALESCE(k.role, u.role) AND r.deleted_at IS NULL),
    CASE WHEN p_company IS NULL THEN NULL ELSE EXISTS (
      SELECT 1 FROM companies c WHERE c.tenant_id = p_tenant AND c.id = p_company AND c.deleted_at IS NULL)
    END,
    (SELECT t.plan FROM tenants t WHERE t.id = p_tenant)
  FROM api_keys k
  LEFT JOIN users u ON u.tenant_id = k.tenant_id AND u.id = k.user_id
  WHERE k.tenant_id = p_tenant AND k.id = p_key;
END
$$;
