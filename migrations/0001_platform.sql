-- Platform core: tenants, people, sign-in, companies, audit, events outbox, e-mail.
--
-- Requests run as bp_app: not a superuser, not the owner of any table, no BYPASSRLS.
-- Every tenant table has row-level security enabled and forced, keyed on app.tenant_id,
-- which withTenant() sets per transaction. bp_app gets no DELETE: nothing is hard-deleted.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bp_app') THEN
    CREATE ROLE bp_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END
$$;
-- The login role (the owner) may switch to bp_app with SET ROLE.
GRANT bp_app TO CURRENT_USER;
GRANT USAGE ON SCHEMA public TO bp_app;

-- The tenant of the current transaction, or NULL outside withTenant.
CREATE OR REPLACE FUNCTION bp_current_tenant() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid $$;

-- Turns on forced row-level security for a tenant table and grants bp_app what a request may do.
CREATE OR REPLACE FUNCTION bp_tenant_table(tbl regclass, key_column text DEFAULT 'tenant_id') RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s USING (%I = bp_current_tenant()) WITH CHECK (%I = bp_current_tenant())',
    tbl, key_column, key_column);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %s TO bp_app', tbl);
END
$$;

CREATE TABLE tenants (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT bp_tenant_table('tenants', 'id');

-- The sign-in directory: the one table read before the tenant is known (login, forgot
-- password). It holds no more than the e-mail address and where it belongs.
CREATE TABLE user_logins (
  email text PRIMARY KEY CHECK (email = lower(email)),
  tenant_id uuid NOT NULL,
  user_id uuid NOT NULL
);
GRANT SELECT, INSERT, UPDATE ON user_logins TO bp_app;

CREATE TABLE roles (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL,
  description text,
  permissions text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX roles_name ON roles (tenant_id, lower(name)) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('roles');

CREATE TABLE users (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  email text NOT NULL CHECK (email = lower(email)),
  name text NOT NULL,
  -- scrypt of the client's SHA-256 hex; NULL until an invited user sets a password
  password_hash text,
  -- a built-in role name, or the id of a custom role
  role text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  totp_secret text,
  totp_enabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz,
  deactivated_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX users_email ON users (tenant_id, email);
SELECT bp_tenant_table('users');

-- A session is one sign-in: the family of its rotating refresh tokens.
CREATE TABLE sessions (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text,
  user_agent text,
  ip text,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
CREATE INDEX sessions_user ON sessions (tenant_id, user_id) WHERE revoked_at IS NULL;
SELECT bp_tenant_table('sessions');

CREATE TABLE refresh_tokens (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  session_id uuid NOT NULL,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id)
);
CREATE UNIQUE INDEX refresh_tokens_hash ON refresh_tokens (tenant_id, token_hash);
SELECT bp_tenant_table('refresh_tokens');

CREATE TABLE recovery_codes (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz,
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
CREATE INDEX recovery_codes_user ON recovery_codes (tenant_id, user_id) WHERE used_at IS NULL AND retired_at IS NULL;
SELECT bp_tenant_table('recovery_codes');

-- Single-use tokens sent by e-mail: password reset and invitation.
CREATE TABLE user_tokens (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('reset', 'invite')),
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
CREATE UNIQUE INDEX user_tokens_hash ON user_tokens (tenant_id, token_hash);
SELECT bp_tenant_table('user_tokens');

CREATE TABLE companies (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  name text NOT NULL,
  trade_name text,
  parent_id uuid,
  ownership_percent numeric(7, 4),
  base_currency char(3) NOT NULL DEFAULT 'ZAR',
  vat_registered boolean NOT NULL DEFAULT false,
  vat_registered_from date,
  vat_number text,
  is_sandbox boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, parent_id) REFERENCES companies (tenant_id, id)
);
SELECT bp_tenant_table('companies');

-- VAT registration history: a company is registered on a date when the latest change on
-- or before that date says so.
CREATE TABLE company_vat_registrations (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  effective_from date NOT NULL,
  registered boolean NOT NULL,
  vat_number text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
CREATE INDEX company_vat_registrations_company ON company_vat_registrations (tenant_id, company_id, effective_from);
SELECT bp_tenant_table('company_vat_registrations');

CREATE TABLE audit_log (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  actor_type text NOT NULL,
  actor_id uuid,
  action text NOT NULL,
  resource text NOT NULL,
  resource_id text,
  company_id uuid,
  request_id text,
  ip text,
  details jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX audit_log_time ON audit_log (tenant_id, occurred_at DESC, id);
SELECT bp_tenant_table('audit_log');
-- The audit log is append-only even for the service itself.
REVOKE UPDATE ON audit_log FROM bp_app;

-- Events outbox: written in the same transaction as the change they announce.
CREATE TABLE events (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX events_time ON events (tenant_id, created_at, id);
SELECT bp_tenant_table('events');

CREATE TABLE emails (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  kind text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'stored', 'failed')),
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX emails_time ON emails (tenant_id, created_at DESC);
SELECT bp_tenant_table('emails');
