// Request and response shapes of /api/roles. A role is named by its id: a built-in role's
// id is its name (owner, admin, ...), a custom role's id is a UUID.
import { Type } from 'typebox';
import { stringEnum } from '../http/enums.ts';
import { clientIdProperty } from '../http/idempotent.ts';
import { nullable } from '../http/nullable.ts';
import { Uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';
import { ACTIONS, ALL_PERMISSIONS, BUILT_IN_ROLES, MODULES } from './permissions.ts';

export const BuiltInRole = named(
  'BuiltInRole',
  stringEnum(BUILT_IN_ROLES, { description: 'The roles every business has; they cannot be changed' }),
);

/** A built-in role name or a custom role's UUID. */
export const RoleRef = Type.Union([BuiltInRole, Uuid], {
  description: 'A built-in role name (owner, admin, accountant, ...) or the UUID of a custom role',
});

export const RoleIdParams = Type.Object({ id: RoleRef }, { additionalProperties: false });

/** What a permission is about: a module's records (the role check's `resource`). */
export const PermissionResource = named(
  'PermissionResource',
  stringEnum(MODULES, { description: 'The records a permission is about (a module)' }),
);

/** What a permission allows; write, approve and manage each include read of the same resource. */
export const PermissionAction = named(
  'PermissionAction',
  stringEnum(ACTIONS, {
    description: 'What a permission allows; write, approve and manage each include read',
  }),
);

/** Built from the resources and actions at load, so a new module's permissions are listed with it. */
export const Permission = named(
  'Permission',
  stringEnum(ALL_PERMISSIONS, {
    description: '"resource:action": a role holds a set of these',
    examples: ['invoices:write'],
  }),
);

export const Role = named(
  'Role',
  Type.Object({
    id: Type.String({ description: 'The name of a built-in role, the UUID of a custom one' }),
    name: Type.String(),
    builtIn: Type.Boolean(),
    description: nullable(Type.String()),
    permissions: Type.Array(Permission, { description: 'Sorted' }),
    createdAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'Custom roles only (built-in roles never change)' }),
    ),
    updatedAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'Custom roles only (built-in roles never change)' }),
    ),
  }),
);

const Permissions = Type.Array(Permission, { maxItems: ALL_PERMISSIONS.length * 2 });

export const RoleCreate = named(
  'RoleCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      name: Type.String({ minLength: 1, maxLength: 100 }),
      description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
      permissions: Permissions,
    },
    {
      additionalProperties: false,
      examples: [
        {
          name: 'Debtors clerk',
          description: 'Chases customers; reads the books',
          permissions: ['contacts:write', 'invoices:write', 'reports:read'],
        },
      ],
    },
  ),
);

export const RoleUpdate = named(
  'RoleUpdate',
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
      permissions: Type.Optional(Permissions),
    },
    { additionalProperties: false },
  ),
);
