// The payroll module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { employeesRoutes } from './employees.routes.ts';
import { leaveRoutes } from './leave.routes.ts';
import { payRunsRoutes } from './pay-runs.routes.ts';
import { payslipsRoutes } from './payslips.routes.ts';

export const payrollRoutes: AnyRoute[] = [
  ...employeesRoutes,
  ...leaveRoutes,
  ...payRunsRoutes,
  ...payslipsRoutes,
];
