-- The sandbox company: one per account at a time, its sample records, and the request
-- principal that tells the catalogue when a call names the sandbox.

-- One live sandbox per tenant. A deleted one (deleted_at set) no longer counts, so a new one
-- may be created after it; two concurrent creates cannot both succeed.
CREATE UNIQUE INDEX companies_one_sandbox ON companies (tenant_id) WHERE is_sandbox AND deleted_at IS NULL;

-- What the sandbox made when it was created: its sample customers and products (which live in
-- the tenant-wide books) and its sample invoices. Deleting the sandbox marks these deleted.
CREATE TABLE sandbox_samples (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  -- the sandbox company
  company_id uuid NOT NULL,
  contact_id uuid,
  product_id uuid,
  invoice_id uuid,
  -- the order they were made in (customers and invoices are answered in it)
  position smallint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
  CHECK (num_nonnulls(contact_id, product_id, invoice_id) = 1)
);
CREATE INDEX sandbox_samples_by_company ON sandbox_samples (tenant_id, company_id, position);
SELECT bp_tenant_table('sandbox_samples');
-- Samples are a record of what was made; nothing changes them.
REVOKE UPDATE ON sandbox_samples FROM bp_app;

-- Both principal functions now also answer company_is_sandbox: whether the company of the
-- X-Company-Id header is the sandbox, so that the catalogue can refuse writes to a sandbox
-- while the plan lacks API access (SANDBOX_READ_ONLY) at no extra round trip. The company is
-- looked up once for company_ok and company_is_sandbox. The return type changes: drop, create.
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
  company_is_sandbox boolean,
  plan text
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT u.email, u.name, u.role, u.active, s.revoked_at, s.expires_at,
    (SELECT r.permissions FROM roles r
      WHERE r.tenant_id = u.tenant_id AND r.id::text = u.role AND r.deleted_at IS NULL),
    CASE WHEN p_company IS NULL THEN NULL ELSE co.is_sandbox IS NOT NULL END,
    COALESCE(co.is_sandbox, false),
    (SELECT t.plan FROM tenants t WHERE t.id = p_tenant)
  FROM sessions s
  JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
  LEFT JOIN LATERAL (
    SELECT c.is_sandbox FROM companies c
     WHERE c.tenant_id = p_tenant AND c.id = p_company AND c.deleted_at IS NULL) co ON true
  WHERE s.tenant_id = p_tenant AND s.id = p_session AND s.user_id = p_user;
END
$$;

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
    CASE WHEN p_company IS NULL THEN NULL ELSE co.is_sandbox IS NOT NULL END,
    COALESCE(co.is_sandbox, false),
    (SELECT t.plan FROM tenants t WHERE t.id = p_tenant)
  FROM api_keys k
  LEFT JOIN users u ON u.tenant_id = k.tenant_id AND u.id = k.user_id
  LEFT JOIN LATERAL (
    SELECT c.is_sandbox FROM companies c
     WHERE c.tenant_id = p_tenant AND c.id = p_company AND c.deleted_at IS NULL) co ON true
  WHERE k.tenant_id = p_tenant AND k.id = p_key;
END
$$;
