-- Incremental sync of the sales documents (issue 13): every record they answer carries
-- created_at and updated_at, and updated_at moves on every change, so `updatedSince` finds it.
--
--   * updated_at is kept by the database: one BEFORE UPDATE trigger per table, the same
--     function for every module (CREATE OR REPLACE: another module's migration makes it too,
--     byte for byte), so no code path that changes a row can forget it;
--   * payments and allocations change (reversed) and had no updated_at; the settings row had
--     no created_at. Existing rows take the best time known (reversal, else creation);
--   * GET /api/invoices?updatedSince= lists deleted drafts too (with deletedAt): its index
--     covers every row, deleted or not; the default order's index has id in its direction.

CREATE OR REPLACE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$;

ALTER TABLE invoice_payments ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE invoice_allocations ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE invoice_settings ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();

-- The backfill sees every tenant's rows: row-level security is lifted for it only (the
-- migration runs as the tables' owner), and forced again at once.
ALTER TABLE invoice_payments NO FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice_allocations NO FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice_settings NO FORCE ROW LEVEL SECURITY;
UPDATE invoice_payments SET updated_at = coalesce(reversed_at, created_at);
UPDATE invoice_allocations SET updated_at = coalesce(reversed_at, created_at);
UPDATE invoice_settings SET created_at = updated_at;
ALTER TABLE invoice_payments FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice_allocations FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice_settings FORCE ROW LEVEL SECURITY;

CREATE TRIGGER invoices_touch BEFORE UPDATE ON invoices
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER invoice_payments_touch BEFORE UPDATE ON invoice_payments
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER invoice_allocations_touch BEFORE UPDATE ON invoice_allocations
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER recurring_invoices_touch BEFORE UPDATE ON recurring_invoices
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER invoice_settings_touch BEFORE UPDATE ON invoice_settings
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
CREATE TRIGGER invoice_templates_touch BEFORE UPDATE ON invoice_templates
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- updatedSince and sort=updatedAt: every row of the company, deleted drafts included.
CREATE INDEX invoices_updated ON invoices (tenant_id, company_id, updated_at, id);
CREATE INDEX recurring_invoices_updated ON recurring_invoices (tenant_id, company_id, updated_at, id);

-- The default order (sort=-date): issue date, then creation, then id, all descending (ties by
-- id in the order's direction); scanned backwards for sort=date.
DROP INDEX invoices_list;
CREATE INDEX invoices_list ON invoices (tenant_id, company_id, issue_date DESC, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;
