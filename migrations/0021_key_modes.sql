-- API keys: test keys confined to the sandbox, and business keys that act with their creator's role.

-- mode: 'live' keys act on every company of the business; 'test' keys (bpk_test_, made with
-- X-Company-Id naming the sandbox) act on the sandbox company alone. An OAuth connection is live.
ALTER TABLE api_keys
  ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test')),
  ADD CONSTRAINT api_keys_test_is_a_key CHECK (mode = 'live' OR oauth_client_id IS NULL);

-- A business key may now be made without a role: it then acts with the role of its creator
-- (created_by) as that role is at each call, so it never does more than the person who made it.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_owner_role CHECK (
  (owner_type = 'user' AND user_id IS NOT NULL AND role IS NULL)
  OR (owner_type = 'business' AND user_id IS NULL));

-- The key principal now also answers the key's mode, and a business key without a role acts
-- with its creator's current role. A business key survives its creator's deactivation (it
-- belongs to the business): then it keeps the role the creator's record holds. The return
-- type changes: drop, create.
DROP FUNCTION bp_request_key_principal(uuid, uuid, uuid);
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
  company_is_sandbox boolean,
  plan text,
  mode text
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
    CASE WHEN p_company IS NULL THEN NULL ELSE co.is_sandbox IS NOT NULL END,
    COALESCE(co.is_sandbox, false),
    (SELECT t.plan FROM tenants t WHERE t.id = p_tenant),
    k.mode
  FROM api_keys k
  -- the person whose role the key takes: a user key's owner, or the creator of a business
  -- key made without a role (a business key with a role does not read it)
  LEFT JOIN users u ON u.tenant_id = k.tenant_id AND u.id = COALESCE(k.user_id, k.created_by)
  LEFT JOIN LATERAL (
    SELECT c.is_sandbox FROM companies c
     WHERE c.tenant_id = p_tenant AND c.id = p_company AND c.deleted_at IS NULL) co ON true
  WHERE k.tenant_id = p_tenant AND k.id = p_key;
END
$$;
