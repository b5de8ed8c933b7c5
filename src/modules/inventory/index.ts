// The inventory module's public surface: the products book (stock, batches, serials and
// locations come later).
export { productRoutes } from './products.routes.ts';
export { createProduct, getProduct, type Product, retireProducts } from './products.service.ts';
