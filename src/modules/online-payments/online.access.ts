// Who may do what with online payments: the invoices module's read and write (DECISIONS.md
// puts /api/payment-gateways under invoices; the inbox and links go with it).
import type { Action, Resource } from '../../platform/auth/permissions.ts';

const sales = { module: 'invoices', companyScoped: true } as const;
export const onlineRead = {
  ...sales,
  access: 'read' as const,
  permission: ['invoices', 'read'] as [Resource, Action],
};
export const onlineWrite = {
  ...sales,
  access: 'write' as const,
  permission: ['invoices', 'write'] as [Resource, Action],
};
