-- A write-off or a bad-debt recovery can be undone (issue 14): its entry is reversed (the reversal
-- entry named here) and the row stays, marked reversed, as payments and allocations do. A reversed
-- write-off no longer counts as written off: the amount is due again, and its VAT claim (field 17)
-- is cancelled by the reversal's tagged lines; a reversed recovery leaves the amount recoverable
-- again and cancels its output tax (field 12).
ALTER TABLE invoice_write_offs ADD COLUMN reversed_at timestamptz;
ALTER TABLE invoice_write_offs ADD COLUMN reversal_entry_id uuid;
ALTER TABLE invoice_write_offs ADD CONSTRAINT invoice_write_offs_reversal_fk
  FOREIGN KEY (tenant_id, reversal_entry_id) REFERENCES journal_entries (tenant_id, id);
ALTER TABLE invoice_bad_debt_recoveries ADD COLUMN reversed_at timestamptz;
ALTER TABLE invoice_bad_debt_recoveries ADD COLUMN reversal_entry_id uuid;
ALTER TABLE invoice_bad_debt_recoveries ADD CONSTRAINT invoice_bad_debt_recoveries_reversal_fk
  FOREIGN KEY (tenant_id, reversal_entry_id) REFERENCES journal_entries (tenant_id, id);
