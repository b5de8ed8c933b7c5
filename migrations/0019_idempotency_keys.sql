-- Idempotency-Key: the answer a create (a POST that answers 201) gave for a caller's key,
-- kept 24 hours per tenant (src/platform/http/idempotency-key.ts).
--
--   * one row per tenant and key: the first request with a key inserts it and, in the same
--     transaction, stores its status and body; a concurrent second one waits on the key and
--     then answers what was stored (or, if the first rolled back, runs itself);
--   * request_hash is a SHA-256 of the canonical request (method, path with its ids, body,
--     the company it acts in): the same key on another request is a 422;
--   * created_at comes from the service's clock; a row older than 24 hours counts as absent
--     and is replaced by the next request with its key;
--   * bp_app has no DELETE (as everywhere): the daily purge runs in the job worker as the
--     login role, which owns the table but is bound by its forced row-level security too.
--     The two policies below let the login role, and only it, see and delete the rows older
--     than the cutoff the purge sets for its own transaction (app.idempotency_purge_before);
--     without that setting they match nothing.

CREATE TABLE idempotency_keys (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
  method text NOT NULL,
  -- the route as declared, e.g. /api/invoices/{id}/payments
  route text NOT NULL,
  request_hash text NOT NULL,
  -- NULL only inside the first request's own transaction, before its handler answers
  status smallint,
  response jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
-- The purge's order.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
SELECT bp_tenant_table('idempotency_keys');

CREATE POLICY purge_expired_read ON idempotency_keys FOR SELECT TO CURRENT_USER
  USING (created_at < NULLIF(current_setting('app.idempotency_purge_before', true), '')::timestamptz);
CREATE POLICY purge_expired ON idempotency_keys FOR DELETE TO CURRENT_USER
  USING (created_at < NULLIF(current_setting('app.idempotency_purge_before', true), '')::timestamptz);
