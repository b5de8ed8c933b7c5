// The companies module's public surface.
export { Company as CompanySchema, type VatCategory } from './companies.schemas.ts';
export { type Company, getCompany, insertCompany, retireCompany } from './companies.service.ts';
