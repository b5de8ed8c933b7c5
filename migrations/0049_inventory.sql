-- Inventory (issue 20): variants, units, locations, batches and serials, stock movements with
-- their running balances and cost pools, stock takes, transfers, landed costs and price lists.
--
--   * The products book stays tenant-wide (0014), like contacts. Stock is not: each company keeps
--     its own ledger, so locations belong to a company, and cost (the average pool, the FIFO
--     layers) is kept per company and item. An item is a product without variants, or one
--     variant of it: item_id is the variant's id, else the product's.
--   * stock_movements are immutable: every change of stock is one row, with its quantity (signed,
--     in the product's base unit), its value (signed, cents) and the document it came from.
--     On-hand and valuation are their sums, kept up by statement triggers in running tables
--     (stock_balances now, stock_month_balances per month) as 0011 does for the ledger, so a
--     report reads months plus the partial month, never the whole history.
--   * Every movement with a value posts it to the inventory account in the same transaction
--     (src/modules/inventory/stock.move.ts), so the valuation ties to the ledger by construction;
--     1200 Inventory is a control account, so no manual journal can post to it.
--   * The chart gains 2160 Goods received not invoiced (grni: a purchase-order receipt brings
--     stock in against it, the bill clears it) and 5200 Stock adjustments (stock_adjustments:
--     count variances), for every company, and every company made later, by a trigger on the
--     inventory account's insert (as 0025 seeds 4950), so 0008's and 0022's seeding is untouched.

-- Products: how stock of them is kept -------------------------------------------------------
ALTER TABLE products
  ADD COLUMN cost_method text NOT NULL DEFAULT 'average' CHECK (cost_method IN ('average', 'fifo')),
  -- batch: every movement names a batch (with an expiry); serial: one serial per unit
  ADD COLUMN tracking text NOT NULL DEFAULT 'none' CHECK (tracking IN ('none', 'batch', 'serial')),
  -- whether stock of it may go below zero (set false for batch and serial products when created)
  ADD COLUMN allow_negative boolean NOT NULL DEFAULT true,
  ADD COLUMN reorder_point numeric(20, 4) CHECK (reorder_point >= 0),
  ADD COLUMN reorder_quantity numeric(20, 4) CHECK (reorder_quantity > 0),
  ADD COLUMN barcode text CHECK (btrim(barcode) <> ''),
  -- the unit stock is counted in; product_units convert others to it
  ADD COLUMN base_unit text NOT NULL DEFAULT 'each' CHECK (btrim(base_unit) <> ''),
  -- weight of one base unit in kg, for landed costs spread by weight
  ADD COLUMN weight numeric(20, 6) CHECK (weight >= 0),
  -- accounts by code, because accounts are per company and the book is not; NULL: the company's
  -- Sales, Cost of sales and Inventory system accounts
  ADD COLUMN income_account_code text,
  ADD COLUMN cost_account_code text,
  ADD COLUMN inventory_account_code text;
CREATE INDEX products_barcode ON products (tenant_id, barcode) WHERE deleted_at IS NULL AND barcode IS NOT NULL;

-- A product's variants (size, colour): each its own SKU, barcode and stock.
CREATE TABLE product_variants (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  product_id uuid NOT NULL,
  sku text NOT NULL CHECK (btrim(sku) <> '' AND sku = btrim(sku)),
  name text NOT NULL CHECK (btrim(name) <> ''),
  -- e.g. {"size": "L", "colour": "red"}
  attributes jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attributes) = 'object'),
  barcode text CHECK (btrim(barcode) <> ''),
  -- NULL: the product's price
  unit_price numeric(18, 4) CHECK (unit_price >= 0),
  weight numeric(20, 6) CHECK (weight >= 0),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id)
);
-- SKUs are unique among live variants; the code also keeps them apart from products' SKUs.
CREATE UNIQUE INDEX product_variants_sku ON product_variants (tenant_id, lower(sku)) WHERE deleted_at IS NULL;
CREATE INDEX product_variants_of ON product_variants (tenant_id, product_id) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('product_variants');
CREATE TRIGGER product_variants_touch BEFORE UPDATE ON product_variants
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- Units of measure other than the base unit: one box = 12 each.
CREATE TABLE product_units (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  product_id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  -- base units in one of this unit
  factor numeric(20, 6) NOT NULL CHECK (factor > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id)
);
CREATE UNIQUE INDEX product_units_name ON product_units (tenant_id, product_id, lower(name)) WHERE retired_at IS NULL;
SELECT bp_tenant_table('product_units');

-- Locations: warehouses, bins within them, and one transit location per company (transfers).
CREATE TABLE stock_locations (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  parent_id uuid,
  code text NOT NULL CHECK (btrim(code) <> '' AND code = btrim(code)),
  name text NOT NULL CHECK (btrim(name) <> ''),
  kind text NOT NULL CHECK (kind IN ('warehouse', 'bin', 'transit')),
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, parent_id) REFERENCES stock_locations (tenant_id, company_id, id),
  CHECK ((kind = 'bin') = (parent_id IS NOT NULL))
);
CREATE UNIQUE INDEX stock_locations_code ON stock_locations (tenant_id, company_id, lower(code)) WHERE deleted_at IS NULL;
-- One default and one transit location per company.
CREATE UNIQUE INDEX stock_locations_default ON stock_locations (tenant_id, company_id)
  WHERE is_default AND deleted_at IS NULL;
CREATE UNIQUE INDEX stock_locations_transit ON stock_locations (tenant_id, company_id)
  WHERE kind = 'transit' AND deleted_at IS NULL;
SELECT bp_tenant_table('stock_locations');
CREATE TRIGGER stock_locations_touch BEFORE UPDATE ON stock_locations
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- Batches (lots) of an item, with an expiry for FEFO.
CREATE TABLE stock_batches (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  product_id uuid NOT NULL,
  item_id uuid NOT NULL,
  code text NOT NULL CHECK (btrim(code) <> '' AND code = btrim(code)),
  expiry_date date,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id)
);
CREATE UNIQUE INDEX stock_batches_code ON stock_batches (tenant_id, item_id, lower(code));
SELECT bp_tenant_table('stock_batches');

-- Serial numbers: each is in stock in exactly one location, or out (sold, written off).
CREATE TABLE stock_serials (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  product_id uuid NOT NULL,
  item_id uuid NOT NULL,
  serial text NOT NULL CHECK (btrim(serial) <> '' AND serial = btrim(serial)),
  batch_id uuid,
  company_id uuid,
  location_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, location_id) REFERENCES stock_locations (tenant_id, company_id, id),
  CHECK ((company_id IS NULL) = (location_id IS NULL))
);
CREATE UNIQUE INDEX stock_serials_serial ON stock_serials (tenant_id, item_id, serial);
SELECT bp_tenant_table('stock_serials');
CREATE TRIGGER stock_serials_touch BEFORE UPDATE ON stock_serials
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- The movements: immutable (bp_app may insert and read them, never change them).
CREATE TABLE stock_movements (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  location_id uuid NOT NULL,
  product_id uuid NOT NULL,
  variant_id uuid,
  item_id uuid NOT NULL,
  batch_id uuid,
  serial_id uuid,
  date date NOT NULL,
  type text NOT NULL CHECK (type IN (
    'opening', 'purchase', 'receipt', 'sale', 'return_in', 'return_out', 'adjustment', 'count',
    'transfer_out', 'transfer_in', 'landed_cost', 'revaluation')),
  -- in the product's base unit; zero only for a change of value alone (landed cost, revaluation)
  quantity numeric(20, 4) NOT NULL,
  -- the cost of one base unit it moved at (value / quantity, kept for reading)
  unit_cost numeric(20, 6) NOT NULL,
  value numeric(18, 2) NOT NULL,
  source_type text NOT NULL,
  source_id uuid,
  source_line_id uuid,
  -- the journal entry its value posted in (NULL when it has none: a transfer)
  entry_id uuid,
  -- a return names the movement it undoes, to come back at the cost it left with
  reverses_movement_id uuid,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, location_id) REFERENCES stock_locations (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
  FOREIGN KEY (tenant_id, batch_id) REFERENCES stock_batches (tenant_id, id),
  FOREIGN KEY (tenant_id, serial_id) REFERENCES stock_serials (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id) DEFERRABLE INITIALLY DEFERRED,
  CHECK (quantity <> 0 OR type IN ('landed_cost', 'revaluation'))
);
CREATE INDEX stock_movements_by_date ON stock_movements (tenant_id, date, id);
CREATE INDEX stock_movements_by_item ON stock_movements (tenant_id, company_id, item_id, date, created_at);
CREATE INDEX stock_movements_by_source ON stock_movements (tenant_id, source_type, source_id);
SELECT bp_tenant_table('stock_movements');
REVOKE UPDATE ON stock_movements FROM bp_app;

-- On hand now, per company, location, item and batch (batch_key: the batch, or the nil UUID).
CREATE TABLE stock_balances (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  location_id uuid NOT NULL,
  item_id uuid NOT NULL,
  batch_key uuid NOT NULL,
  product_id uuid NOT NULL,
  quantity numeric(20, 4) NOT NULL DEFAULT 0,
  value numeric(18, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, location_id, item_id, batch_key)
);
CREATE INDEX stock_balances_by_product ON stock_balances (tenant_id, product_id);
SELECT bp_tenant_table('stock_balances');

-- Quantity and value moved per company, location, item and month: a valuation at a date reads
-- the months before it and the movements of its own month.
CREATE TABLE stock_month_balances (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  location_id uuid NOT NULL,
  item_id uuid NOT NULL,
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  product_id uuid NOT NULL,
  quantity numeric(20, 4) NOT NULL DEFAULT 0,
  value numeric(18, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, company_id, location_id, item_id, month)
);
SELECT bp_tenant_table('stock_month_balances');

CREATE FUNCTION bp_maintain_stock_balances() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  -- In key order, so that concurrent statements take the rows' locks in one order.
  INSERT INTO stock_balances AS b (tenant_id, company_id, location_id, item_id, batch_key, product_id, quantity, value)
    SELECT tenant_id, company_id, location_id, item_id,
           coalesce(batch_id, '00000000-0000-0000-0000-000000000000'::uuid), min(product_id::text)::uuid,
           sum(quantity), sum(value)
      FROM new_moves
      GROUP BY tenant_id, company_id, location_id, item_id, coalesce(batch_id, '00000000-0000-0000-0000-000000000000'::uuid)
      ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (tenant_id, company_id, location_id, item_id, batch_key)
      DO UPDATE SET quantity = b.quantity + excluded.quantity, value = b.value + excluded.value;
  INSERT INTO stock_month_balances AS b (tenant_id, company_id, location_id, item_id, month, product_id, quantity, value)
    SELECT tenant_id, company_id, location_id, item_id, date_trunc('month', date)::date, min(product_id::text)::uuid,
           sum(quantity), sum(value)
      FROM new_moves
      GROUP BY tenant_id, company_id, location_id, item_id, date_trunc('month', date)::date
      ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (tenant_id, company_id, location_id, item_id, month)
      DO UPDATE SET quantity = b.quantity + excluded.quantity, value = b.value + excluded.value;
  RETURN NULL;
END
$$;
CREATE TRIGGER stock_movements_balances AFTER INSERT ON stock_movements
  REFERENCING NEW TABLE AS new_moves FOR EACH STATEMENT EXECUTE FUNCTION bp_maintain_stock_balances();

-- The cost pool of an item in a company: what is on hand in all its locations and its value.
-- moveStock locks this row first: it serialises every movement of one item in one company.
CREATE TABLE stock_costs (
  tenant_id uuid NOT NULL,
  company_id uuid NOT NULL,
  item_id uuid NOT NULL,
  product_id uuid NOT NULL,
  quantity numeric(20, 4) NOT NULL DEFAULT 0,
  value numeric(18, 2) NOT NULL DEFAULT 0,
  -- the last unit cost stock came in at: the cost of stock taken out beyond what is on hand
  last_unit_cost numeric(20, 6) NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, company_id, item_id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id)
);
SELECT bp_tenant_table('stock_costs');

-- FIFO layers: each receipt of a FIFO item, with what is left of it.
CREATE TABLE stock_layers (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  item_id uuid NOT NULL,
  movement_id uuid NOT NULL,
  date date NOT NULL,
  quantity numeric(20, 4) NOT NULL CHECK (quantity > 0),
  quantity_left numeric(20, 4) NOT NULL CHECK (quantity_left >= 0 AND quantity_left <= quantity),
  value_left numeric(18, 2) NOT NULL CHECK (value_left >= 0),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, movement_id) REFERENCES stock_movements (tenant_id, id)
);
CREATE INDEX stock_layers_open ON stock_layers (tenant_id, company_id, item_id, date, created_at)
  WHERE quantity_left > 0;
SELECT bp_tenant_table('stock_layers');

-- Stock takes: a count sheet per location; approval posts the variances.
CREATE TABLE stock_takes (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  location_id uuid NOT NULL,
  number text,
  date date NOT NULL,
  status text NOT NULL DEFAULT 'counting' CHECK (status IN ('counting', 'approved', 'cancelled')),
  notes text,
  entry_id uuid,
  approved_at timestamptz,
  approved_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, location_id) REFERENCES stock_locations (tenant_id, company_id, id)
);
CREATE INDEX stock_takes_by_date ON stock_takes (tenant_id, company_id, date, id);
SELECT bp_tenant_table('stock_takes');
CREATE TRIGGER stock_takes_touch BEFORE UPDATE ON stock_takes
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE stock_take_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  stock_take_id uuid NOT NULL,
  product_id uuid NOT NULL,
  variant_id uuid,
  item_id uuid NOT NULL,
  batch_id uuid,
  -- on hand when the sheet was made (for reading); the variance is worked at approval
  expected numeric(20, 4) NOT NULL,
  counted numeric(20, 4) CHECK (counted >= 0),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, stock_take_id) REFERENCES stock_takes (tenant_id, id)
);
CREATE UNIQUE INDEX stock_take_lines_item ON stock_take_lines
  (tenant_id, stock_take_id, item_id, coalesce(batch_id, '00000000-0000-0000-0000-000000000000'::uuid));
SELECT bp_tenant_table('stock_take_lines');

-- Transfers between locations of one company: out of the source into transit, then received.
CREATE TABLE stock_transfers (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  from_location_id uuid NOT NULL,
  to_location_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'in_transit' CHECK (status IN ('in_transit', 'received', 'cancelled')),
  sent_date date NOT NULL,
  received_date date,
  reference text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id, from_location_id) REFERENCES stock_locations (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id, to_location_id) REFERENCES stock_locations (tenant_id, company_id, id),
  CHECK (from_location_id <> to_location_id)
);
CREATE INDEX stock_transfers_by_date ON stock_transfers (tenant_id, company_id, sent_date, id);
SELECT bp_tenant_table('stock_transfers');
CREATE TRIGGER stock_transfers_touch BEFORE UPDATE ON stock_transfers
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE stock_transfer_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  transfer_id uuid NOT NULL,
  line_no integer NOT NULL,
  product_id uuid NOT NULL,
  variant_id uuid,
  item_id uuid NOT NULL,
  batch_id uuid,
  serial_id uuid,
  quantity numeric(20, 4) NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, transfer_id) REFERENCES stock_transfers (tenant_id, id)
);
CREATE INDEX stock_transfer_lines_of ON stock_transfer_lines (tenant_id, transfer_id, line_no);
SELECT bp_tenant_table('stock_transfer_lines');

-- Landed costs: freight, duty and clearing on approved bills, spread over received goods.
CREATE TABLE landed_costs (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  date date NOT NULL,
  method text NOT NULL CHECK (method IN ('value', 'quantity', 'weight')),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'posted')),
  amount numeric(18, 2) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  description text,
  entry_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
CREATE INDEX landed_costs_by_date ON landed_costs (tenant_id, company_id, date, id);
SELECT bp_tenant_table('landed_costs');
CREATE TRIGGER landed_costs_touch BEFORE UPDATE ON landed_costs
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- The bill lines a landed cost takes its amount from.
CREATE TABLE landed_cost_charges (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  landed_cost_id uuid NOT NULL,
  bill_id uuid NOT NULL,
  bill_line_id uuid NOT NULL,
  amount numeric(18, 2) NOT NULL CHECK (amount > 0),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, landed_cost_id) REFERENCES landed_costs (tenant_id, id)
);
CREATE INDEX landed_cost_charges_of ON landed_cost_charges (tenant_id, landed_cost_id);
CREATE INDEX landed_cost_charges_by_line ON landed_cost_charges (tenant_id, bill_line_id);
SELECT bp_tenant_table('landed_cost_charges');

-- The receipts (inbound movements) a landed cost is spread over, and each one's share.
CREATE TABLE landed_cost_allocations (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  landed_cost_id uuid NOT NULL,
  movement_id uuid NOT NULL,
  amount numeric(18, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, landed_cost_id) REFERENCES landed_costs (tenant_id, id),
  FOREIGN KEY (tenant_id, movement_id) REFERENCES stock_movements (tenant_id, id)
);
CREATE UNIQUE INDEX landed_cost_allocations_movement ON landed_cost_allocations (tenant_id, landed_cost_id, movement_id);
SELECT bp_tenant_table('landed_cost_allocations');

-- Price lists: per company or every company (company_id NULL), per product or variant.
CREATE TABLE price_lists (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  company_id uuid,
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  -- the contacts with any of these tags take this list (a contact's own assignment wins)
  contact_tags text[] NOT NULL DEFAULT '{}',
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
CREATE UNIQUE INDEX price_lists_name ON price_lists (tenant_id, lower(name)) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('price_lists');
CREATE TRIGGER price_lists_touch BEFORE UPDATE ON price_lists
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE price_list_items (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  price_list_id uuid NOT NULL,
  product_id uuid NOT NULL,
  variant_id uuid,
  unit_price numeric(18, 4) NOT NULL CHECK (unit_price >= 0),
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, price_list_id) REFERENCES price_lists (tenant_id, id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
  FOREIGN KEY (tenant_id, variant_id) REFERENCES product_variants (tenant_id, id)
);
CREATE UNIQUE INDEX price_list_items_item ON price_list_items
  (tenant_id, price_list_id, product_id, coalesce(variant_id, '00000000-0000-0000-0000-000000000000'::uuid))
  WHERE retired_at IS NULL;
SELECT bp_tenant_table('price_list_items');

-- A contact's own price list.
ALTER TABLE contacts ADD COLUMN price_list_id uuid;
ALTER TABLE contacts ADD CONSTRAINT contacts_price_list_fk
  FOREIGN KEY (tenant_id, price_list_id) REFERENCES price_lists (tenant_id, id);

-- Sales document lines may name a product (and a variant): releasing one moves its stock.
ALTER TABLE invoice_lines
  ADD COLUMN product_id uuid,
  ADD COLUMN variant_id uuid,
  ADD CONSTRAINT invoice_lines_product_fk FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
  ADD CONSTRAINT invoice_lines_variant_fk FOREIGN KEY (tenant_id, variant_id) REFERENCES product_variants (tenant_id, id),
  ADD CONSTRAINT invoice_lines_variant_needs_product CHECK (variant_id IS NULL OR product_id IS NOT NULL);
ALTER TABLE bill_lines ADD COLUMN variant_id uuid;
ALTER TABLE purchase_order_lines ADD COLUMN variant_id uuid;

-- 2160 Goods received not invoiced and 5200 Stock adjustments, once per company -------------
CREATE FUNCTION bp_seed_stock_accounts(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO accounts (tenant_id, id, company_id, code, name, type, subtype, system_key, is_control)
    SELECT p_tenant, gen_random_uuid(), p_company,
           CASE WHEN EXISTS (SELECT 1 FROM accounts c
                              WHERE c.tenant_id = p_tenant AND c.company_id = p_company AND lower(c.code) = s.code)
                THEN s.code || '.1' ELSE s.code END,
           s.name, s.type, s.subtype, s.system_key, s.is_control
      FROM (VALUES
        ('2160', 'Goods received not invoiced', 'liability', 'current_liability', 'grni', true),
        ('5200', 'Stock adjustments', 'expense', 'cost_of_sales', 'stock_adjustments', false)
      ) AS s (code, name, type, subtype, system_key, is_control)
     WHERE NOT EXISTS (SELECT 1 FROM accounts a
                        WHERE a.tenant_id = p_tenant AND a.company_id = p_company
                          AND a.system_key = s.system_key);
$$;

CREATE FUNCTION bp_stock_accounts_follow() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bp_seed_stock_accounts(NEW.tenant_id, NEW.company_id);
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_stock_accounts AFTER INSERT ON accounts
  FOR EACH ROW WHEN (NEW.system_key = 'inventory') EXECUTE FUNCTION bp_stock_accounts_follow();

ALTER TABLE accounts NO FORCE ROW LEVEL SECURITY;
SELECT bp_seed_stock_accounts(tenant_id, company_id) FROM accounts WHERE system_key = 'inventory';
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;

-- Every company starts with its default location (MAIN) and its transit location (TRANSIT), made
-- with the company, so that a read (GET /api/inventory/locations runs in a read-only
-- transaction) finds them; stock.items.ts defaultLocation still makes them for a write if absent.
CREATE FUNCTION bp_seed_stock_locations(p_tenant uuid, p_company uuid) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO stock_locations (tenant_id, id, company_id, code, name, kind, is_default)
    SELECT p_tenant, gen_random_uuid(), p_company, s.code, s.name, s.kind, s.is_default
      FROM (VALUES ('MAIN', 'Main warehouse', 'warehouse', true), ('TRANSIT', 'In transit', 'transit', false))
        AS s (code, name, kind, is_default)
     WHERE NOT EXISTS (SELECT 1 FROM stock_locations l
                        WHERE l.tenant_id = p_tenant AND l.company_id = p_company AND l.deleted_at IS NULL
                          AND (lower(l.code) = lower(s.code)
                               OR (s.is_default AND l.is_default)
                               OR (s.kind = 'transit' AND l.kind = 'transit')));
$$;

CREATE FUNCTION bp_stock_locations_follow() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bp_seed_stock_locations(NEW.tenant_id, NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER companies_stock_locations AFTER INSERT ON companies
  FOR EACH ROW EXECUTE FUNCTION bp_stock_locations_follow();

ALTER TABLE companies NO FORCE ROW LEVEL SECURITY;
ALTER TABLE stock_locations NO FORCE ROW LEVEL SECURITY;
SELECT bp_seed_stock_locations(tenant_id, id) FROM companies;
ALTER TABLE stock_locations FORCE ROW LEVEL SECURITY;
ALTER TABLE companies FORCE ROW LEVEL SECURITY;
