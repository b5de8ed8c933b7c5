// Plans, lowest first; each includes everything of the plans below it (DECISIONS.md).
import type { Plan } from '../../config.ts';
import type { ModuleName } from './permissions.ts';

export interface PlanLimits {
  /** modules this plan adds to the ones below it */
  adds: ModuleName[];
  /** companies allowed, the sandbox excluded; null for unlimited */
  companies: number | null;
  apiKeys: number;
}

export const PLAN_TABLE: Record<Plan, PlanLimits> = {
  free: {
    adds: ['contacts', 'invoices', 'banking', 'reports', 'admin', 'companies'],
    companies: 1,
    apiKeys: 0,
  },
  starter: { adds: ['crm', 'expenses', 'timetracking', 'jobcards'], companies: 1, apiKeys: 0 },
  business: { adds: ['inventory', 'transactions'], companies: 3, apiKeys: 5 },
  professional: { adds: ['payroll', 'tax'], companies: 5, apiKeys: 10 },
  manufacturing: { adds: ['manufacturing', 'logistics'], companies: 10, apiKeys: 20 },
  enterprise: { adds: ['consolidation'], companies: null, apiKeys: 100 },
};

const ORDER = Object.keys(PLAN_TABLE) as Plan[];

/** Every module of a plan, its own and those of the plans below it. Billing is always on. */
export function modulesOf(plan: Plan): Set<ModuleName> {
  const out = new Set<ModuleName>(['billing']);
  for (const p of ORDER.slice(0, ORDER.indexOf(plan) + 1)) for (const m of PLAN_TABLE[p].adds) out.add(m);
  return out;
}

export function companyAllowance(plan: Plan): number | null {
  return PLAN_TABLE[plan].companies;
}
