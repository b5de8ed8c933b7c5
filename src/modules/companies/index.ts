// The companies module's public surface.
export { vatRegisteredOn } from './companies.queries.ts';
export { companyRoutes } from './companies.routes.ts';
export { type Company, insertCompany } from './companies.service.ts';
