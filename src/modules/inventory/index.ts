// The inventory module's public surface (issue 20): the products book with variants and units,
// locations, stock movements through the one service that moves stock (moveStock), batches and
// serials, stock takes, transfers, landed costs, price lists and the valuation. Tenant-wide
// books (products, price lists); stock itself is kept per company (locations, cost pools).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { adjustmentsRoutes } from './adjustments.routes.ts';
import { batchesRoutes } from './batches.routes.ts';
import { contactPriceListRoutes } from './contact-price-list.routes.ts';
import { landedCostsRoutes } from './landed-costs.routes.ts';
import { locationsRoutes } from './locations.routes.ts';
import { movementsRoutes } from './movements.routes.ts';
import { priceListsRoutes } from './price-lists.routes.ts';
import { productRoutes } from './products.routes.ts';
import { serialsRoutes } from './serials.routes.ts';
import { stockRoutes } from './stock.routes.ts';
import { stockTakesRoutes } from './stock-takes.routes.ts';
import { transfersRoutes } from './transfers.routes.ts';
import { unitsRoutes } from './units.routes.ts';
import { valuationRoutes } from './valuation.routes.ts';
import { variantsRoutes } from './variants.routes.ts';

export const inventoryRoutes: AnyRoute[] = [
  ...productRoutes,
  ...variantsRoutes,
  ...unitsRoutes,
  ...locationsRoutes,
  ...priceListsRoutes,
  ...contactPriceListRoutes,
  ...movementsRoutes,
  ...adjustmentsRoutes,
  ...stockRoutes,
  ...valuationRoutes,
  ...batchesRoutes,
  ...serialsRoutes,
  ...stockTakesRoutes,
  ...transfersRoutes,
  ...landedCostsRoutes,
];
// Purchases: a receipt brings goods in against GRNI, a bill of an order line clears it, a void of
// such a bill takes its price difference off the goods again (flows.purchases.ts).
export { billStock, receiveStock, unbillStock } from './flows.purchases.ts';
export { contactPrice, salesUnitPrice } from './price-lists.lookup.ts';
export { createProduct, getProduct, type Product, retireProducts } from './products.service.ts';
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
