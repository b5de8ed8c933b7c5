// Which licensed modules this service has built so far. The plans (DECISIONS.md) name every
// module a business may buy; not all of them exist yet, and a client must not offer a module
// the service cannot serve. Update BUILT as each module lands.
import type { ModuleName } from '../../platform/auth/permissions.ts';

/** The modules built today, with what of each is built when it is not the whole module. */
export const BUILT: Partial<Record<ModuleName, string | null>> = {
  contacts: null,
  invoices: null,
  reports: null,
  admin: null,
  companies: null,
  inventory: null,
  crm: null,
  payroll:
    'The SARS files (EMP201 and EMP501 submissions, IRP5 certificates) are not built yet: they come with the tax returns',
  transactions: null,
  billing: null,
  expenses: null,
  banking: null,
};

export const MODULE_STATUSES = ['available', 'not_licensed', 'not_built'] as const;
export type ModuleStatus = (typeof MODULE_STATUSES)[number];

export function isBuilt(module: ModuleName): boolean {
  return module in BUILT;
}

/** available: licensed and built; not_licensed: built, not in the plan; not_built: not in this service yet. */
export function statusOf(module: ModuleName, licensed: boolean): ModuleStatus {
  if (!isBuilt(module)) return 'not_built';
  return licensed ? 'available' : 'not_licensed';
}
