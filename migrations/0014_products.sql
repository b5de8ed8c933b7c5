-- Products: one book per tenant (like contacts), shared by every company of the tenant. The
-- start of the inventory module; stock, batches, serials and locations come later.
--
--   * never hard-deleted: DELETE sets deleted_at (bp_app has no DELETE anyway);
--   * the SKU is unique per tenant in any case among live products, so a deleted product's
--     SKU may be used again;
--   * unit_price is the selling price excluding VAT, exact (NUMERIC, up to four decimals, as
--     invoice lines take it); vat_rate NULL means the standard rate on the document's date.

CREATE TABLE products (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  sku text NOT NULL CHECK (btrim(sku) <> '' AND sku = btrim(sku)),
  name text NOT NULL CHECK (btrim(name) <> ''),
  description text,
  unit_price numeric(18, 4) NOT NULL CHECK (unit_price >= 0),
  -- percent; NULL: the standard rate (15%, 14% before 2018-04-01) on the document's date
  vat_rate numeric(6, 3) CHECK (vat_rate BETWEEN 0 AND 100),
  -- whether stock on hand is counted for it (a service is not)
  is_tracked boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX products_sku ON products (tenant_id, lower(sku)) WHERE deleted_at IS NULL;
-- The list's order: name in any case, then id; live products only.
CREATE INDEX products_by_name ON products (tenant_id, lower(name), id) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('products');
