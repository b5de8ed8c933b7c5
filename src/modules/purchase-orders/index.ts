// Purchase orders (issue 16): ordering from suppliers, receiving, and the bill made from what
// was received. Its routes belong to the expenses module (DECISIONS.md).
export { purchaseOrderRoutes } from './purchase-orders.routes.ts';
