// /api/roles: the built-in roles (read only) and the tenant's custom roles.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { createdOrExisting } from '../http/idempotent.ts';
import { Role, RoleCreate, RoleIdParams, RoleUpdate } from './roles.schemas.ts';
import { createRole, deleteRole, getRole, listRoles, updateRole } from './roles.service.ts';

const audit = { resource: 'role' };

export const roleRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/roles',
    operationId: 'listRoles',
    tag: 'Roles',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    summary: 'Every role: the eight built-in roles, then the custom roles (bare array)',
    description:
      'Built-in roles have their name as id and `builtIn: true`; custom roles have a UUID id, ' +
      '`builtIn: false` and timestamps. Custom roles are sorted by name.',
    response: { 200: Type.Array(Role) },
    handler: async (_input, ctx) => listRoles(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/roles/{id}',
    operationId: 'getRole',
    tag: 'Roles',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    summary: 'One role, by built-in name or custom role id',
    params: RoleIdParams,
    response: { 200: Role },
    handler: async ({ params }, ctx) => getRole(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/roles',
    operationId: 'createRole',
    tag: 'Roles',
    errors: ['CONFLICT', 'PERMISSION_NOT_HELD'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    summary: 'Create a custom role from a set of "resource:action" permissions',
    description:
      'Each permission must be one of the service\'s "resource:action" pairs (400 naming `permissions[i]`). ' +
      'write, approve and manage each include read of the same resource. The name is unique in the ' +
      'business regardless of case and may not be a built-in role name (409). 201 on create; 200 with ' +
      'the existing role when clientId was already used. Nobody grants a permission they do not hold ' +
      'themselves (403 PERMISSION_NOT_HELD).',
    body: RoleCreate,
    response: createdOrExisting(Role),
    handler: async ({ body }, ctx) => createRole(ctx, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/roles/{id}',
    operationId: 'updateRole',
    tag: 'Roles',
    errors: ['CONFLICT', 'PERMISSION_NOT_HELD'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    summary: "Change a custom role's name, description or permissions",
    description:
      'Built-in roles cannot be changed (409). Users holding the role get the new permissions on their ' +
      'next request. Nobody grants a permission they do not hold themselves (403 PERMISSION_NOT_HELD).',
    params: RoleIdParams,
    body: RoleUpdate,
    response: { 200: Role },
    handler: async ({ params, body }, ctx) => updateRole(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/roles/{id}',
    operationId: 'deleteRole',
    tag: 'Roles',
    errors: ['CONFLICT'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    summary: 'Delete a custom role (soft)',
    description:
      'Marks the role deleted; it no longer appears or can be assigned. Refused with 409, naming how many, ' +
      'while active users hold it. Built-in roles cannot be deleted (409).',
    params: RoleIdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteRole(ctx, params.id);
      return null;
    },
  }),
];
