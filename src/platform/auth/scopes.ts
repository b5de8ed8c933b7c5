// API-key scopes: <module>:read and <module>:write for every licensed module, plus `full`
// (DECISIONS.md). write includes read; full covers everything.
import { MODULES, type ModuleName } from './permissions.ts';

export const FULL_SCOPE = 'full';

/** How a person reads each module in a scope's label. */
const MODULE_LABELS: Record<ModuleName, string> = {
  contacts: 'contacts (customers, suppliers, employees)',
  invoices: 'invoices, quotes and other sales documents',
  banking: 'bank accounts, transactions and reconciliation',
  reports: 'reports, the ledger, fixed assets and the chart of accounts',
  admin: 'users, roles, API keys, webhooks and the audit log',
  companies: 'companies and the company hierarchy',
  crm: 'leads, opportunities and the sales pipeline',
  expenses: 'expenses, bills, mileage and purchase orders',
  timetracking: 'time entries',
  jobcards: 'job cards',
  inventory: 'products, stock and landed costs',
  transactions: 'contact transactions and billing runs',
  payroll: 'employees, pay runs, payslips and leave',
  tax: 'SARS documents and submissions',
  manufacturing: 'bills of materials, planning and procurement',
  logistics: 'trips, stops and proof of delivery',
  consolidation: 'consolidation groups and consolidated views',
  billing: 'the plan, entitlements and billing',
};

export interface ScopeInfo {
  scope: string;
  label: string;
}

export const SCOPES: ScopeInfo[] = [
  ...MODULES.flatMap((m) => [
    { scope: `${m}:read`, label: `Read ${MODULE_LABELS[m]}` },
    { scope: `${m}:write`, label: `Create and change ${MODULE_LABELS[m]} (includes read)` },
  ]),
  { scope: FULL_SCOPE, label: 'Everything the key’s role allows, in every module of the plan' },
];

const KNOWN = new Set(SCOPES.map((s) => s.scope));

export function isScope(value: string): boolean {
  return KNOWN.has(value);
}

/** The scope a call needs: "<module>:<access>". */
export function scopeNeeded(module: ModuleName, access: 'read' | 'write'): string {
  return `${module}:${access}`;
}

/** Whether granted scopes admit <module>:<access>: write includes read, full covers all. */
export function scopesAllow(
  granted: readonly string[],
  module: ModuleName,
  access: 'read' | 'write',
): boolean {
  if (granted.includes(FULL_SCOPE) || granted.includes(`${module}:write`)) return true;
  return access === 'read' && granted.includes(`${module}:read`);
}
