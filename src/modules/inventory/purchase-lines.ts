// The line of a supplier's document that inventory takes: a bill line (flows.purchases.ts) or a
// supplier credit note line (flows.returns.ts). Inventory declares the shape it accepts rather
// than importing its callers' types: bills sits above inventory, and a bill line is this shape
// (bills/bills.posting.ts, TaxedLine), checked where bills hands its lines over.

/** The columns a bill line and a supplier credit note line share, as their entries post them. */
export interface PurchaseLine {
  account_id: string;
  description: string;
  tax_code: string;
  /** Decimal strings, as NUMERIC columns read. */
  vat_rate: string;
  net_amount: string;
  vat_amount: string;
  total_amount: string;
  cost_centre_id?: string | null;
  /** A line to GRNI names the order line it bills (flows.order-match.ts). */
  open_item_id?: string | null;
}
