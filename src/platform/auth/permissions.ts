// Modules, permission resources and the built-in roles. A permission is "resource:action";
// a role is a set of them. Route declarations name the permission they need.

/** Licensed modules (DECISIONS.md, plans table). */
export const MODULES = [
  'contacts',
  'invoices',
  'banking',
  'reports',
  'admin',
  'companies',
  'crm',
  'expenses',
  'timetracking',
  'jobcards',
  'inventory',
  'transactions',
  'payroll',
  'tax',
  'manufacturing',
  'logistics',
  'consolidation',
  'billing',
] as const;
export type ModuleName = (typeof MODULES)[number];

/** Route owners that are not licensed modules: sign-in and the service's own endpoints. */
export type RouteModule = ModuleName | 'auth' | 'platform';

export const ACTIONS = ['read', 'write', 'approve', 'manage'] as const;
export type Action = (typeof ACTIONS)[number];
export type Resource = ModuleName;
export type Permission = `${Resource}:${Action}`;

export const BUILT_IN_ROLES = [
  'owner',
  'admin',
  'accountant',
  'sales',
  'purchasing',
  'payroll',
  'warehouse',
  'viewer',
] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

const BUSINESS_MODULES = MODULES.filter((m) => m !== 'admin' && m !== 'billing');
/** What the viewer reads: the business modules but payroll, whose pay, ID and tax numbers are
 *  personal information (POPIA) shown only to roles granted a payroll permission (issue 34). */
const VIEWER_MODULES = BUSINESS_MODULES.filter((m) => m !== 'payroll');

function grant(resources: readonly Resource[], actions: readonly Action[]): Permission[] {
  return resources.flatMap((r) => actions.map((a) => `${r}:${a}` as Permission));
}

const RW: Action[] = ['read', 'write'];
const RWA: Action[] = ['read', 'write', 'approve'];

const BUILT_IN: Record<BuiltInRole, { description: string; permissions: Permission[] }> = {
  owner: { description: 'Everything, including billing and access', permissions: grant(MODULES, ACTIONS) },
  admin: { description: 'Everything, including users, roles and keys', permissions: grant(MODULES, ACTIONS) },
  accountant: {
    description: 'Books, documents, banking, payroll, tax and reports; reads the audit log',
    permissions: [
      ...grant(
        [
          'contacts',
          'invoices',
          'banking',
          'reports',
          'expenses',
          'payroll',
          'tax',
          'companies',
          'consolidation',
          'transactions',
        ],
        RWA,
      ),
      ...grant(
        ['inventory', 'crm', 'timetracking', 'jobcards', 'manufacturing', 'logistics', 'billing'],
        ['read'],
      ),
      'admin:read',
    ],
  },
  sales: {
    description: 'Customers, quotes, invoices and the sales pipeline',
    permissions: [
      ...grant(['contacts', 'invoices', 'crm', 'timetracking', 'jobcards'], RW),
      ...grant(['inventory', 'reports', 'companies'], ['read']),
    ],
  },
  purchasing: {
    description: 'Suppliers, expenses, bills and stock',
    permissions: [
      ...grant(['contacts', 'expenses', 'inventory'], RW),
      ...grant(['manufacturing', 'reports', 'companies'], ['read']),
    ],
  },
  payroll: {
    description: 'Employees, pay runs and leave',
    permissions: [
      ...grant(['payroll'], RWA),
      ...grant(['contacts', 'companies', 'reports', 'timetracking'], ['read']),
    ],
  },
  warehouse: {
    description: 'Stock, manufacturing and deliveries',
    permissions: [
      ...grant(['inventory', 'manufacturing', 'logistics', 'jobcards'], RW),
      ...grant(['contacts', 'companies'], ['read']),
    ],
  },
  viewer: {
    description: 'Reads the business modules but payroll; changes nothing',
    permissions: grant(VIEWER_MODULES, ['read']),
  },
};

export function isBuiltInRole(role: string): role is BuiltInRole {
  return (BUILT_IN_ROLES as readonly string[]).includes(role);
}

export function builtInRole(role: BuiltInRole) {
  return BUILT_IN[role];
}

export const ALL_PERMISSIONS: Permission[] = grant(MODULES, ACTIONS);

export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as string[]).includes(value);
}

export class PermissionSet {
  readonly #set: ReadonlySet<string>;
  constructor(permissions: Iterable<string>) {
    this.#set = new Set(permissions);
  }
  /** write, approve and manage each include read of the same resource. */
  allows(resource: Resource, action: Action): boolean {
    if (this.#set.has(`${resource}:${action}`)) return true;
    if (action === 'read') {
      return ACTIONS.some((a) => this.#set.has(`${resource}:${a}`));
    }
    return false;
  }
  list(): string[] {
    return [...this.#set].sort();
  }
}
