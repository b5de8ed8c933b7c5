// Who may call the catalogue's routes (products, variants, units, locations, price lists): module
// inventory (Business and above), permission inventory read or write.
import type { Action, Resource } from '../../platform/auth/permissions.ts';

export const inventoryRead = {
  module: 'inventory',
  access: 'read' as const,
  permission: ['inventory', 'read'] as [Resource, Action],
} as const;

export const inventoryWrite = {
  module: 'inventory',
  access: 'write' as const,
  permission: ['inventory', 'write'] as [Resource, Action],
} as const;
