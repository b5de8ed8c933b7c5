// /api/users (the people of a business) and POST /auth/accept-invitation (an invited
// person choosing a password).
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { Paged } from '../http/paging.ts';
import { IdParams } from '../http/schema-basics.ts';
import { LoginResponse } from './auth.schemas.ts';
import { AcceptInvitationBody, User, UserCreate, UserListQuery, UserUpdate } from './users.schemas.ts';
import {
  acceptInvitation,
  createUser,
  getUser,
  INVITATION_DAYS,
  listUsers,
  updateUser,
} from './users.service.ts';

const audit = { resource: 'user' };

export const userRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/users',
    operationId: 'listUsers',
    tag: 'Users',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    summary: 'The users of the business (paged), active and deactivated',
    description:
      '`q` matches name or e-mail (contains, any case); `role` takes a built-in role name or a custom role id; ' +
      '`isActive` true or false (`active`, its former name, is still read); `updatedSince` only users changed since then. Filters apply before paging. ' +
      'Sorted by name unless `sort` names createdAt or updatedAt (a leading `-` for descending; ties by id).',
    query: UserListQuery,
    response: { 200: Paged(User) },
    handler: async ({ query }, ctx) => listUsers(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/users/{id}',
    operationId: 'getUser',
    tag: 'Users',
    module: 'admin',
    access: 'read',
    permission: ['admin', 'read'],
    summary: 'One user',
    params: IdParams,
    response: { 200: User },
    handler: async ({ params }, ctx) => getUser(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/users',
    operationId: 'inviteUser',
    tag: 'Users',
    errors: ['CONFLICT', 'OWNER_REQUIRED', 'PERMISSION_NOT_HELD'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    summary:
      'Add a user: with a password they can sign in at once, without one they are e-mailed an invitation',
    description:
      '`password`, when sent, is the lowercase hex SHA-256 of the password. Without it the person gets an ' +
      `e-mail with a single-use token, valid ${INVITATION_DAYS} days, for POST /auth/accept-invitation. ` +
      'The e-mail address must not belong to any user of any business (409). `roleId` is a built-in role ' +
      'name or the id of a custom role of this business (400 otherwise). Only an owner may make someone an ' +
      'owner (403 OWNER_REQUIRED), and nobody may give a role with a permission they do not hold ' +
      'themselves (403 PERMISSION_NOT_HELD).',
    body: UserCreate,
    response: { 201: User },
    handler: async ({ body }, ctx) => createUser(ctx, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/users/{id}',
    operationId: 'updateUser',
    tag: 'Users',
    errors: ['CONFLICT', 'OWNER_REQUIRED', 'PERMISSION_NOT_HELD'],
    module: 'admin',
    access: 'write',
    permission: ['admin', 'manage'],
    audit,
    summary: 'Rename a user, change their role, or deactivate or reactivate them',
    description:
      "A role change applies from the user's next request. `active: false` deactivates: every session of " +
      'the user is revoked, so their tokens fail on the next request. Nobody may deactivate themselves, and ' +
      'the last active owner can neither be deactivated nor lose the owner role (409). Only an owner may ' +
      "give the owner role or change an owner's role or status (403 OWNER_REQUIRED). Reactivating a user " +
      'whose custom role was deleted needs a new `roleId` (409 otherwise). Giving a role (or giving it back ' +
      'by reactivating) needs every permission of that role (403 PERMISSION_NOT_HELD).',
    params: IdParams,
    body: UserUpdate,
    response: { 200: User },
    handler: async ({ params, body }, ctx) => updateUser(ctx, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/accept-invitation',
    operationId: 'acceptInvitation',
    tag: 'Users',
    module: 'auth',
    access: 'write',
    auth: 'none',
    summary: "Accept an invitation: set the invited user's password and sign in",
    description:
      '`token` is the one from the invitation e-mail; `password` the lowercase hex SHA-256 of the chosen ' +
      'password. The token works once and expires after ' +
      `${INVITATION_DAYS} days; an unknown, used or expired token is a 400 naming token. Answers the login response.`,
    body: AcceptInvitationBody,
    response: { 200: LoginResponse },
    handler: async ({ body }, ctx) => acceptInvitation(ctx, body),
  }),
];
