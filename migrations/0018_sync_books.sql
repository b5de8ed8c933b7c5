-- Incremental sync on the books (contacts, products, accounts, companies, journals): every
-- record's updated_at moves on every change, and the growing lists can be read by
-- updatedSince and sorted by updatedAt or createdAt (ties by id) from an index.
--
-- The services set updated_at themselves (from the app's clock, which tests may move); the
-- trigger catches every update that does not (a bulk retire, a change made elsewhere), so no
-- change leaves updated_at behind. It fires only then (WHEN), so a service's own timestamp is
-- kept. The function is shared with other tables; keep it byte-identical wherever it is made.
CREATE OR REPLACE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$;

CREATE TRIGGER contacts_touch_updated_at BEFORE UPDATE ON contacts
  FOR EACH ROW WHEN (NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER products_touch_updated_at BEFORE UPDATE ON products
  FOR EACH ROW WHEN (NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER accounts_touch_updated_at BEFORE UPDATE ON accounts
  FOR EACH ROW WHEN (NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER companies_touch_updated_at BEFORE UPDATE ON companies
  FOR EACH ROW WHEN (NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION touch_updated_at();

-- updatedSince and sort=updatedAt / createdAt. Deleted rows are included: a sync learns of
-- a delete through deletedAt.
CREATE INDEX contacts_by_updated ON contacts (tenant_id, updated_at, id);
CREATE INDEX contacts_by_created ON contacts (tenant_id, created_at, id);
CREATE INDEX products_by_updated ON products (tenant_id, updated_at, id);
CREATE INDEX products_by_created ON products (tenant_id, created_at, id);

-- Journal entries are never updated (a void posts a reversal): an entry's updatedAt is its
-- reversal's createdAt when it has one. Both updatedSince and sort=createdAt read this index
-- (the reversal is found by journal_entries_one_reversal).
CREATE INDEX journal_entries_by_created ON journal_entries (tenant_id, company_id, created_at, id);
