-- Issue 34: value added to the units a receipt brought in, after the fact. Two things do it: a
-- landed cost (freight, duty), and a supplier's bill priced differently from its purchase order.
-- Both go through one service (inventory/revalue.ts): the part for the receipt's units still on
-- hand raises their cost (a value-only movement), the part for units gone is cost of sales.
--
--   * stock_movements takes the type 'price_difference' (a bill's price against its order's, on
--     the receipt's units still on hand), value only as a landed cost is;
--   * receipt_revaluations records each share: the receipt movement, the amount, what of it went
--     into stock (kept; the rest went to cost of sales), the movement that carried it and the
--     entry. A bill's void undoes its shares by writing rows that name them (undoes_id), once;
--   * movements of an item in the write order (seq), to follow the average pool after a receipt.

ALTER TABLE stock_movements DROP CONSTRAINT stock_movements_type_check;
ALTER TABLE stock_movements ADD CONSTRAINT stock_movements_type_check CHECK (type IN (
  'opening', 'purchase', 'receipt', 'sale', 'return_in', 'return_out', 'adjustment', 'count',
  'transfer_out', 'transfer_in', 'landed_cost', 'price_difference', 'revaluation'));
ALTER TABLE stock_movements DROP CONSTRAINT stock_movements_check;
ALTER TABLE stock_movements ADD CONSTRAINT stock_movements_value_only
  CHECK (quantity <> 0 OR type IN ('landed_cost', 'price_difference', 'revaluation'));
CREATE INDEX stock_movements_by_item_seq ON stock_movements (tenant_id, company_id, item_id, seq);

CREATE TABLE receipt_revaluations (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  -- the movement that brought the units in (a receipt, a purchase)
  receipt_movement_id uuid NOT NULL,
  source_type text NOT NULL CHECK (source_type IN ('bill', 'landed_cost')),
  source_id uuid NOT NULL,
  -- the bill line (a price difference), or none (a landed cost)
  source_line_id uuid,
  date date NOT NULL,
  -- signed: what the receipt's units take (a bill cheaper than its order: less than 0)
  amount numeric(18, 2) NOT NULL,
  -- of which into stock (units still on hand); amount - kept went to cost of sales
  kept numeric(18, 2) NOT NULL,
  -- the value-only movement that carried `kept` (none when nothing was kept)
  movement_id uuid,
  entry_id uuid NOT NULL,
  -- a share undone (its bill voided) names the share it undoes
  undoes_id uuid,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, receipt_movement_id) REFERENCES stock_movements (tenant_id, id),
  FOREIGN KEY (tenant_id, movement_id) REFERENCES stock_movements (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id) DEFERRABLE INITIALLY DEFERRED,
  FOREIGN KEY (tenant_id, undoes_id) REFERENCES receipt_revaluations (tenant_id, id)
);
CREATE INDEX receipt_revaluations_by_source ON receipt_revaluations (tenant_id, source_type, source_id);
CREATE UNIQUE INDEX receipt_revaluations_undone_once ON receipt_revaluations (tenant_id, undoes_id)
  WHERE undoes_id IS NOT NULL;
SELECT bp_tenant_table('receipt_revaluations');
REVOKE UPDATE ON receipt_revaluations FROM bp_app;
