-- Purchase orders (issue 16): what the company ordered from a supplier, before the supplier's
-- bill. An order is a commitment, not a transaction: nothing here posts to the ledger.
--   draft → sent (PDF e-mailed) → partially_received / received (goods in, per line) → billed
--   (every ordered quantity received and billed); cancelled (sent or partly received, nothing billed).
--   * numbered PO-0001 per company from document_counters (type 'purchase_order'), the sales
--     documents' gap-free counter;
--   * lines are priced as bill lines are (tax code, the rate of the issue date, half-up per line);
--     a draft's lines are replaced by retiring the old ones (retired_at), never deleted;
--   * what was received is the sum of the receipt lines; what was billed, the sum of the live
--     bill lines that name the order line (bill_lines.purchase_order_line_id, added here);
--   * product_id is stored without a foreign key, as on bill lines.
CREATE TABLE purchase_orders (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  number text NOT NULL,
  status text NOT NULL CHECK (status IN (
    'draft', 'sent', 'partially_received', 'received', 'billed', 'cancelled')),
  issue_date date NOT NULL,
  expected_date date CHECK (expected_date >= issue_date),
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  reference text,
  notes text,
  delivery_address text,
  vat_registered boolean NOT NULL,
  subtotal numeric(18, 2) NOT NULL,
  vat_total numeric(18, 2) NOT NULL,
  total numeric(18, 2) NOT NULL CHECK (total >= 0),
  sent_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
);
CREATE UNIQUE INDEX purchase_orders_number ON purchase_orders (tenant_id, company_id, number);
CREATE INDEX purchase_orders_list ON purchase_orders (tenant_id, company_id, issue_date DESC, created_at DESC, id)
  WHERE deleted_at IS NULL;
CREATE INDEX purchase_orders_by_updated ON purchase_orders (tenant_id, company_id, updated_at);
SELECT bp_tenant_table('purchase_orders');
CREATE TRIGGER purchase_orders_touch BEFORE UPDATE ON purchase_orders
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE TABLE purchase_order_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  purchase_order_id uuid NOT NULL,
  line_no integer NOT NULL,
  description text NOT NULL,
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  unit_price numeric(18, 4) NOT NULL CHECK (unit_price >= 0),
  tax_code text NOT NULL CHECK (tax_code IN ('standard', 'standard_capital', 'zero', 'exempt', 'out_of_scope')),
  vat_rate numeric(6, 3) NOT NULL CHECK (vat_rate BETWEEN 0 AND 100),
  account_id uuid NOT NULL,
  product_id uuid,
  net_amount numeric(18, 2) NOT NULL,
  vat_amount numeric(18, 2) NOT NULL,
  total_amount numeric(18, 2) NOT NULL,
  retired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, purchase_order_id) REFERENCES purchase_orders (tenant_id, id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
);
CREATE UNIQUE INDEX purchase_order_lines_live ON purchase_order_lines (tenant_id, purchase_order_id, line_no)
  WHERE retired_at IS NULL;
SELECT bp_tenant_table('purchase_order_lines');

-- Goods received against an order: one receipt per delivery, a quantity per order line.
CREATE TABLE purchase_order_receipts (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  purchase_order_id uuid NOT NULL,
  date date NOT NULL,
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, purchase_order_id) REFERENCES purchase_orders (tenant_id, id)
);
CREATE INDEX purchase_order_receipts_by_order ON purchase_order_receipts (tenant_id, purchase_order_id, date);
SELECT bp_tenant_table('purchase_order_receipts');

CREATE TABLE purchase_order_receipt_lines (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  receipt_id uuid NOT NULL,
  purchase_order_line_id uuid NOT NULL,
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, receipt_id) REFERENCES purchase_order_receipts (tenant_id, id),
  FOREIGN KEY (tenant_id, purchase_order_line_id) REFERENCES purchase_order_lines (tenant_id, id)
);
CREATE INDEX purchase_order_receipt_lines_by_line ON purchase_order_receipt_lines (tenant_id, purchase_order_line_id);
SELECT bp_tenant_table('purchase_order_receipt_lines');

-- A bill line made from an order line remembers it (what was billed of the order, per line).
ALTER TABLE bill_lines ADD COLUMN purchase_order_line_id uuid;
ALTER TABLE bill_lines ADD FOREIGN KEY (tenant_id, purchase_order_line_id)
  REFERENCES purchase_order_lines (tenant_id, id);
CREATE INDEX bill_lines_by_order_line ON bill_lines (tenant_id, purchase_order_line_id)
  WHERE purchase_order_line_id IS NOT NULL;

-- A bill against an order that bills more than was received is held: the reason, and approval
-- needs it accepted (POST /api/bills/{id}/approve { acceptMismatch: true }).
ALTER TABLE bills ADD COLUMN receipt_mismatch text;
ALTER TABLE bills ADD COLUMN receipt_mismatch_accepted_by uuid;
