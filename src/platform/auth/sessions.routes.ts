// The caller's own sessions: GET /auth/sessions, DELETE /auth/sessions/{id},
// POST /auth/sessions/revoke-all and POST /auth/logout.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { IdParams } from '../http/schema-basics.ts';
import { NoContent, RevokedCount, SessionView } from './sessions.schemas.ts';
import { listOwnSessions, logout, revokeAllOwnSessions, revokeOwnSession } from './sessions.service.ts';

export const sessionRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/auth/sessions',
    operationId: 'listSessions',
    tag: 'Sessions',
    module: 'auth',
    access: 'read',
    // The handler needs who is asking before it reads anything.
    principalFirst: true,
    permission: null,
    summary: "The caller's active sessions (bare array), most recently used first",
    description:
      'A session is one sign-in; `current` marks the one this token belongs to. Revoked and expired ' +
      'sessions are not listed.',
    response: { 200: Type.Array(SessionView) },
    handler: async (_input, ctx) => listOwnSessions(ctx),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/auth/sessions/{id}',
    operationId: 'revokeSession',
    tag: 'Sessions',
    module: 'auth',
    access: 'write',
    permission: null,
    audit: { resource: 'session' },
    summary: "Revoke one of the caller's own sessions",
    description:
      "Its access and refresh tokens stop working on the next request. Another user's session, another " +
      "tenant's, or one already ended: 404.",
    params: IdParams,
    response: { 204: NoContent },
    handler: async ({ params }, ctx) => revokeOwnSession(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/sessions/revoke-all',
    operationId: 'revokeAllSessions',
    tag: 'Sessions',
    module: 'auth',
    access: 'write',
    permission: null,
    audit: { resource: 'session' },
    summary: 'Revoke every session of the caller, the current one included',
    description:
      'Every access and refresh token of the caller stops working on the next request, this one too: ' +
      'sign in again afterwards. Answers how many sessions were revoked.',
    response: { 200: RevokedCount },
    handler: async (_input, ctx) => revokeAllOwnSessions(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/logout',
    operationId: 'logout',
    tag: 'Sessions',
    module: 'auth',
    access: 'write',
    permission: null,
    audit: { resource: 'session' },
    summary: 'Sign out: revoke the current session',
    description: "This session's access and refresh tokens stop working; the caller's other sessions stay.",
    response: { 204: NoContent },
    handler: async (_input, ctx) => logout(ctx),
  }),
];
