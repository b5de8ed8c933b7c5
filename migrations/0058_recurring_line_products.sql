-- Recurring invoices (issue 20 follow-up): a template line keeps the product it sells. The
-- template took productId, variantId, unit and batchCode (the invoice line's input) but kept none
-- of them, so each document it made was a line of text that moved no stock. Now they are kept
-- and given to every document made. Serials are refused on a template (a serial is sold once).
-- No foreign keys: every document made is checked as any invoice is (a product deleted since
-- stops the run with its error, as a deleted account does).

ALTER TABLE recurring_invoice_lines
  ADD COLUMN product_id uuid,
  ADD COLUMN variant_id uuid,
  ADD COLUMN unit text,
  ADD COLUMN batch_code text;
