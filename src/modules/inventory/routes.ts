// The inventory module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).
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
