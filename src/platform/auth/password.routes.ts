// Forgot / reset password (public) and change password (signed in).
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import {
  ChangePasswordBody,
  ChangePasswordResponse,
  ForgotPasswordBody,
  ForgotPasswordResponse,
  ResetPasswordBody,
} from './password.schemas.ts';
import { changePassword, requestPasswordReset, resetPassword } from './password.service.ts';
import { NoContent } from './sessions.schemas.ts';

export const passwordRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/auth/forgot-password',
    operationId: 'requestPasswordReset',
    tag: 'Authentication',
    module: 'auth',
    access: 'write',
    auth: 'none',
    summary: 'Ask for a password-reset e-mail',
    description:
      'Answers 202 with the same body, in about the same time, whatever the address: whether an account ' +
      'exists is not revealed. For an active account an e-mail carries a single-use reset token, valid for ' +
      'one hour, and a link to `{PUBLIC_BASE_URL}/reset-password?token=...`.',
    body: ForgotPasswordBody,
    response: { 202: ForgotPasswordResponse },
    handler: async ({ body }, ctx) => requestPasswordReset(ctx, body.email),
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/reset-password',
    operationId: 'resetPassword',
    tag: 'Authentication',
    module: 'auth',
    access: 'write',
    auth: 'none',
    summary: 'Set a new password with the token from the reset e-mail',
    description:
      '`password` is the lowercase hex SHA-256 of the new password (plaintext: 400 naming password). ' +
      'The token works once and for one hour; a used, expired or unknown token is a 400 naming token. ' +
      'Every session of the user is revoked: earlier access and refresh tokens stop working. Two-factor ' +
      'sign-in, when on, stays on. Answers 204; sign in with the new password.',
    body: ResetPasswordBody,
    response: { 204: NoContent },
    handler: async ({ body }, ctx) => resetPassword(ctx, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/password',
    operationId: 'changePassword',
    tag: 'Authentication',
    module: 'auth',
    access: 'write',
    permission: null,
    audit: { resource: 'user' },
    summary: "Change the signed-in user's password",
    description:
      'Both passwords are lowercase hex SHA-256. A wrong (or plaintext) current password is a 400 naming ' +
      'currentPassword, not a 401, so that clients do not take it for an expired token. Every other ' +
      'session of the user is revoked; the one making this call stays signed in.',
    body: ChangePasswordBody,
    response: { 200: ChangePasswordResponse },
    handler: async ({ body }, ctx) => changePassword(ctx, body),
  }),
];
