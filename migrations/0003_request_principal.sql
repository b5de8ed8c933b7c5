-- The caller of a request, in one call: session, user, custom role permissions and,
-- when the route is company-scoped, whether the company exists in the tenant.
-- PL/pgSQL keeps the plan of its query per connection, so this is planned once per
-- connection instead of on every request (measured: planning was most of its cost).
-- SECURITY INVOKER (the default): it runs as bp_app, under row-level security.
CREATE FUNCTION bp_request_principal(p_tenant uuid, p_session uuid, p_user uuid, p_company uuid)
RETURNS TABLE (
  email text,
  name text,
  role text,
  active boolean,
  revoked_at timestamptz,
  expires_at timestamptz,
  permissions text[],
  company_ok boolean
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
    END
  FROM sessions s
  JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
  WHERE s.tenant_id = p_tenant AND s.id = p_session AND s.user_id = p_user;
END
$$;
