// The inventory module's public surface (issue 20): the products book with variants and units,
// locations, stock movements through the one service that moves stock (moveStock), batches and
// serials, stock takes, transfers, landed costs, price lists and the valuation. Tenant-wide
// books (products, price lists); stock itself is kept per company (locations, cost pools).

// Purchases: a receipt brings goods in against GRNI, a bill of an order line clears it, a void of
// such a bill takes its price difference off the goods again (flows.purchases.ts).
export { billStock, receiveStock, unbillStock } from './flows.purchases.ts';
// What the modules above this one use (index.ts is the only door: test/boundaries.test.ts).
export { supplierReturnStock } from './flows.returns.ts';
export { deliverStock, moveSalesStock } from './flows.sales.ts';
export { undoStock } from './flows.undo.ts';
export { unreceiveStock } from './flows.unreceive.ts';
export {
  billLineStock,
  lineStockOut,
  orderLineStock,
  receiptLineStock,
  salesLineStock,
} from './lines.schemas.ts';
export {
  assertLineStock,
  type LineStock,
  type LineStockColumn,
  stockAnswer,
  stockColumn,
  stockInput,
} from './lines.ts';
export { contactPrice, salesUnitPrice } from './price-lists.lookup.ts';
export { assertLiveProducts } from './products.live.ts';
export { createProduct, getProduct, type Product, retireProducts } from './products.service.ts';
export { withProductTaxCodes } from './products.tax.ts';
export type { PurchaseLine } from './purchase-lines.ts';
// Value added to a receipt's units after the fact (a landed cost, a bill's price difference):
// units on hand take it, units gone send it to cost of sales (revalue.ts).
export { type ReceiptShare, type Revaluation, revalueReceipts, undoRevaluations } from './revalue.ts';
export {
  assertLocation,
  batchOf,
  costOfSalesAccount,
  defaultLocation,
  inventoryAccount,
  type StockItem,
  serialOf,
  stockItem,
  transitLocation,
} from './stock.items.ts';
export { moveStock, type StockMove, type StockMoved } from './stock.move.ts';
export type { MovementType } from './stock.tables.ts';
export { toBaseUnits } from './units.service.ts';
