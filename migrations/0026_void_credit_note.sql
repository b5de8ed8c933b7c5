-- Voiding a released tax invoice issues a credit note (issue 14, VAT Act s21(1), (3)): the
-- customer may hold the invoice, so it is cancelled by a numbered credit note, not by a silent
-- reversal. The voided invoice names that credit note (answered as voidedByCreditNoteId).
ALTER TABLE invoices ADD COLUMN voided_by_credit_note_id uuid;
ALTER TABLE invoices ADD CONSTRAINT invoices_voided_by_credit_note_fk
  FOREIGN KEY (tenant_id, voided_by_credit_note_id) REFERENCES invoices (tenant_id, id);
