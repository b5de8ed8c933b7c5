// Request and response shapes of /api/roles. A role is named by its id: a built-in role's
// id is its name (owner, admin, ...), a custom role's id is a UUID.
import { Type } from 'typebox';
import { clientIdProperty } from '../http/idempotent.ts';
import { nullable } from '../http/nullable.ts';
import { ALL_PERMISSIONS, BUILT_IN_ROLES } from './permissions.ts';

/** A built-in role name or a custom role's UUID. */
export const RoleRef = Type.Union([Type.Enum(BUILT_IN_ROLES), Type.String({ format: 'uuid' })], {
  description: 'A built-in role name (owner, admin, accountant, ...) or the UUID of a custom role',
});

export const RoleIdParams = Type.Object({ id: RoleRef });

const PermissionString = Type.String({
  maxLength: 40,
  description: `"resource:action", one of: ${ALL_PERMISSIONS.join(', ')}`,
  examples: ['invoices:write'],
});

export const Role = Type.Object({
  id: Type.String({ description: 'The name of a built-in role, the UUID of a custom one' }),
  name: Type.String(),
  builtIn: Type.Boolean(),
  description: nullable(Type.String()),
  permissions: Type.Array(Type.String(), { description: '"resource:action" strings, sorted' }),
  createdAt: Type.Optional(Type.String({ format: 'date-time', description: 'Custom roles only' })),
  updatedAt: Type.Optional(Type.String({ format: 'date-time', description: 'Custom roles only' })),
});

export const RoleCreate = Type.Object(
  {
    clientId: clientIdProperty,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
    permissions: Type.Array(PermissionString, { maxItems: ALL_PERMISSIONS.length * 2 }),
  },
  {
    examples: [
      {
        name: 'Debtors clerk',
        description: 'Chases customers; reads the books',
        permissions: ['contacts:write', 'invoices:write', 'reports:read'],
      },
    ],
  },
);

export const RoleUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
  permissions: Type.Optional(Type.Array(PermissionString, { maxItems: ALL_PERMISSIONS.length * 2 })),
});
