-- Credit and debit notes (issue 14):
--   * a credit note whose whole amount has been applied to invoices is `applied` (it goes back
--     to `open` when an allocation is reversed);
--   * a debit note may name the document it adjusts too: credited_invoice_id (answered as
--     creditedDocumentId) is no longer a credit note's alone. The column keeps its name.
ALTER TABLE invoices DROP CONSTRAINT invoices_status_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN (
  'draft', 'open', 'partially_paid', 'paid', 'applied', 'void', 'accepted', 'declined', 'converted'));

-- Earlier notes against one document are summed at each create and release.
CREATE INDEX invoices_credited ON invoices (tenant_id, credited_invoice_id)
  WHERE credited_invoice_id IS NOT NULL AND deleted_at IS NULL;
