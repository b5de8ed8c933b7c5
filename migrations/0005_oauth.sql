-- OAuth 2 for multi-business apps.
--
-- An app lives in the tenant of the developer who registered it; its client id
-- ("bpapp_<tenant id>.<app id>") names that tenant, so the app is read inside that tenant's
-- transaction under row-level security. What a connection grants lives in the connecting
-- business: the authorization code, then an api_keys row owned by the person who connected
-- (so it is in their key list, revocable there, capped by their role, and ends with them).
CREATE TABLE oauth_apps (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL,
  -- exact addresses; a redirect_uri must equal one of them character for character
  redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
  secret_hash text NOT NULL,
  secret_last_four text NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  deleted_by uuid,
  PRIMARY KEY (tenant_id, id)
);
SELECT bp_tenant_table('oauth_apps');

-- A connection is an API key without a key: no secret of its own (secret_hash NULL), used
-- through the access tokens /oauth/token issues and renewed with its rotating refresh token.
ALTER TABLE api_keys ALTER COLUMN secret_hash DROP NOT NULL;
ALTER TABLE api_keys
  ADD COLUMN oauth_client_id text,
  ADD COLUMN refresh_hash text,
  -- the refresh token before the latest rotation: presented again, it is taken as stolen
  ADD COLUMN previous_refresh_hash text,
  ADD COLUMN refresh_expires_at timestamptz,
  ADD CONSTRAINT api_keys_secret_or_oauth CHECK (
    (oauth_client_id IS NULL AND secret_hash IS NOT NULL)
    OR (oauth_client_id IS NOT NULL AND secret_hash IS NULL AND owner_type = 'user'));
CREATE INDEX api_keys_oauth_live ON api_keys (tenant_id, user_id, oauth_client_id)
  WHERE oauth_client_id IS NOT NULL AND revoked_at IS NULL;

-- An authorization code, in the connecting business. Single use: used_at is set by the one
-- exchange that wins; key_id is the connection it made (revoked if the code is replayed).
CREATE TABLE oauth_codes (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  code_hash text NOT NULL,
  client_id text NOT NULL,
  app_name text NOT NULL,
  user_id uuid NOT NULL,
  scopes text[] NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  key_id uuid,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
SELECT bp_tenant_table('oauth_codes');
