-- Inventory: the order stock moved in, kept exactly. Movements and FIFO layers were ordered by
-- created_at (clock_timestamp()), but the embedded database's clock is coarse: measured, 50
-- inserts in one transaction on PGlite carried 3 distinct timestamps, so layers written together
-- (a bill's two lines of one product at two costs) fell back to their random ids, and FIFO took
-- them in a random order. A sequence number (an identity: the insert privilege is enough) orders
-- them as they were written. Rows already there are numbered in their stored order.

ALTER TABLE stock_movements ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE stock_layers ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;

DROP INDEX stock_movements_by_item;
CREATE INDEX stock_movements_by_item ON stock_movements (tenant_id, company_id, item_id, date, seq);
DROP INDEX stock_layers_open;
CREATE INDEX stock_layers_open ON stock_layers (tenant_id, company_id, item_id, date, seq)
  WHERE quantity_left > 0;
