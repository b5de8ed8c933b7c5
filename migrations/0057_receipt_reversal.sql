-- Purchase orders: a goods receipt entered by mistake is reversed, never deleted. The receipt
-- keeps its lines and movements; it is marked reversed (when, by whom, dated what, why), its
-- goods go out again naming the movements they came in with (type 'return_out'), and an entry
-- dated the reversal posts Dr GRNI / Cr inventory (purchase-orders.reversal.ts). What an order
-- line has received is then the sum of its live receipts' lines (reversed ones left out).

ALTER TABLE purchase_order_receipts
  ADD COLUMN reversed_at timestamptz,
  ADD COLUMN reversed_by_type text CHECK (reversed_by_type IN ('user', 'api_key', 'system')),
  ADD COLUMN reversed_by uuid,
  ADD COLUMN reversal_date date,
  ADD COLUMN reversal_reason text CHECK (btrim(reversal_reason) <> ''),
  ADD CONSTRAINT purchase_order_receipts_reversal_whole
    CHECK ((reversed_at IS NULL) = (reversal_date IS NULL) AND (reversed_at IS NULL) = (reversed_by_type IS NULL)),
  ADD CONSTRAINT purchase_order_receipts_reversal_after CHECK (reversal_date >= date);
