-- Inventory on document lines (issue 20, second part): the unit a line's quantity is given in,
-- and the batch (with its expiry, coming in) and serial numbers of the goods it moves. One jsonb
-- per line table, {unit, batchCode, batchExpiry, serials}, null for a line that names none: the
-- documents only keep what was sent and answer it; the movements (stock_movements.batch_id,
-- serial_id) are the record of what moved. No index: nothing is looked up by them.
ALTER TABLE invoice_lines ADD COLUMN stock jsonb CHECK (stock IS NULL OR jsonb_typeof(stock) = 'object');
ALTER TABLE bill_lines ADD COLUMN stock jsonb CHECK (stock IS NULL OR jsonb_typeof(stock) = 'object');
ALTER TABLE purchase_order_lines ADD COLUMN stock jsonb CHECK (stock IS NULL OR jsonb_typeof(stock) = 'object');
ALTER TABLE purchase_order_receipt_lines
  ADD COLUMN stock jsonb CHECK (stock IS NULL OR jsonb_typeof(stock) = 'object');

-- A supplier credit note's line may name the product it sends back (and its unit, batch and
-- serials): the goods leave stock at the cost they came in with (inventory/flows.returns.ts).
ALTER TABLE bill_credit_note_lines
  ADD COLUMN product_id uuid,
  ADD COLUMN stock jsonb CHECK (stock IS NULL OR jsonb_typeof(stock) = 'object'),
  ADD CONSTRAINT bill_credit_note_lines_product_fk
    FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id);
