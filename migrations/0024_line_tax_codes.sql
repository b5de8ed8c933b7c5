-- A sales document's line carries a tax code (VAT Act s7(1)(a), s11(1), s11(1)(a), s12), and the
-- rate follows from the code and the issue date (DECISIONS.md, "Money and VAT"):
--   standard      15% (14% before 2018-04-01)
--   zero          zero-rated goods and services, s11(1)
--   zero_export   zero-rated exports, s11(1)(a)
--   exempt        exempt supplies, s12
--   out_of_scope  not a supply for VAT
ALTER TABLE invoice_lines ADD COLUMN tax_code text;

-- Existing lines from their rate: 0 is zero-rated, any other rate standard. A company not
-- registered on the issue date stored 0 whatever the line asked, so there the rate the line
-- asked for decides (none asked: standard). The backfill sees every tenant's rows: row-level
-- security is lifted for it only (the migration runs as the tables' owner), and forced again.
ALTER TABLE invoice_lines NO FORCE ROW LEVEL SECURITY;
ALTER TABLE invoices NO FORCE ROW LEVEL SECURITY;
UPDATE invoice_lines l
   SET tax_code = CASE
         WHEN (CASE WHEN i.vat_registered THEN l.vat_rate ELSE coalesce(l.requested_vat_rate, 15) END) = 0
           THEN 'zero'
         ELSE 'standard'
       END
  FROM invoices i
 WHERE i.tenant_id = l.tenant_id AND i.id = l.invoice_id;
ALTER TABLE invoice_lines FORCE ROW LEVEL SECURITY;
ALTER TABLE invoices FORCE ROW LEVEL SECURITY;

ALTER TABLE invoice_lines
  ALTER COLUMN tax_code SET NOT NULL,
  ADD CONSTRAINT invoice_lines_tax_code CHECK (
    tax_code IN ('standard', 'zero', 'zero_export', 'exempt', 'out_of_scope'));

-- A recurring schedule's template line: NULL takes the code from its vat_rate (none: standard).
ALTER TABLE recurring_invoice_lines
  ADD COLUMN tax_code text,
  ADD CONSTRAINT recurring_invoice_lines_tax_code CHECK (
    tax_code IN ('standard', 'zero', 'zero_export', 'exempt', 'out_of_scope'));
