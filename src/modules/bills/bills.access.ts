// What every bills route shares: module expenses (DECISIONS.md), the company header, the tag,
// and the role permission each kind of call needs.
import type { Action, Resource } from '../../platform/auth/permissions.ts';

const expenses = { module: 'expenses', companyScoped: true, tag: 'Bills' } as const;
const as = (action: Action) => ['expenses', action] as [Resource, Action];

export const read = { ...expenses, access: 'read' as const, permission: as('read') };
export const write = { ...expenses, access: 'write' as const, permission: as('write') };
export const approve = { ...expenses, access: 'write' as const, permission: as('approve') };
