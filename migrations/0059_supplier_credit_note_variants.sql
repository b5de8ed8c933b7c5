-- A supplier credit note's line may name the variant it sends back (issue 20 follow-up): a
-- product with variants keeps its stock per variant, so the return must say which one leaves
-- (inventory/flows.returns.ts). Bill lines and sales lines name it already (0049).

ALTER TABLE bill_credit_note_lines
  ADD COLUMN variant_id uuid,
  ADD CONSTRAINT bill_credit_note_lines_variant_fk
    FOREIGN KEY (tenant_id, variant_id) REFERENCES product_variants (tenant_id, id);
