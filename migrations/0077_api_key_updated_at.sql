-- API keys carry updatedAt like every other record (issue 35): when the key itself last changed
-- (made, revoked), not when it was last used. The service sets it with the time it writes
-- (created_at, revoked_at: the app's clock); the trigger is the floor under any other change a
-- statement forgets to date. A token exchange (last_used_at) and an OAuth refresh's rotation
-- (refresh_*) are use, not change: they leave it alone. Existing keys: their revocation, else
-- their creation.
ALTER TABLE api_keys ADD COLUMN updated_at timestamptz;
UPDATE api_keys SET updated_at = coalesce(revoked_at, created_at);
ALTER TABLE api_keys ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now();

CREATE FUNCTION bp_api_keys_touch() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  use_only text[] := ARRAY['last_used_at', 'refresh_hash', 'previous_refresh_hash', 'refresh_expires_at', 'updated_at'];
BEGIN
  IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at
     AND (to_jsonb(NEW) - use_only) IS DISTINCT FROM (to_jsonb(OLD) - use_only) THEN
    NEW.updated_at := greatest(now(), OLD.updated_at);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER api_keys_touch BEFORE UPDATE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION bp_api_keys_touch();
