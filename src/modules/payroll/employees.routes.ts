// Employees of a company (issue 21): filled in by the employees work.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const employeesRoutes: AnyRoute[] = [];
