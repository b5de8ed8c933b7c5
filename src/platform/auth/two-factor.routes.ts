// TOTP two-factor and recovery codes for the signed-in user.
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { RecoveryCodes, TotpCodeBody, TotpEnrolment, TwoFactorStatus } from './two-factor.schemas.ts';
import {
  confirmTotp,
  disableTotp,
  enrolTotp,
  replaceRecoveryCodes,
  twoFactorStatus,
} from './two-factor.service.ts';

const AUTHENTICATED = { module: 'auth', permission: null, tag: 'Two-factor' } as const;

export const twoFactorRoutes: AnyRoute[] = [
  defineRoute({
    ...AUTHENTICATED,
    method: 'GET',
    path: '/auth/2fa',
    operationId: 'getTwoFactorStatus',
    access: 'read',
    // The handler needs who is asking before it reads anything.
    principalFirst: true,
    summary: 'Whether two-factor sign-in is on for the caller, and how many recovery codes are left',
    response: { 200: TwoFactorStatus },
    handler: async (_input, ctx) => twoFactorStatus(ctx),
  }),
  defineRoute({
    ...AUTHENTICATED,
    method: 'POST',
    path: '/auth/2fa/enrol',
    operationId: 'enrolTwoFactor',
    errors: ['CONFLICT'],
    access: 'write',
    audit: { resource: 'two-factor' },
    summary: 'Start two-factor enrolment: a new TOTP secret, pending until confirmed',
    description:
      'Answers the otpauth:// URI (for a QR code) and the base32 secret. Sign-in does not ask for a code ' +
      'until POST /auth/2fa/confirm succeeds; enrolling again before that replaces the secret. ' +
      'Already on: 409.',
    response: { 200: TotpEnrolment },
    handler: async (_input, ctx) => enrolTotp(ctx),
  }),
  defineRoute({
    ...AUTHENTICATED,
    method: 'POST',
    path: '/auth/2fa/confirm',
    operationId: 'confirmTwoFactor',
    errors: ['CONFLICT'],
    access: 'write',
    audit: { resource: 'two-factor' },
    summary: 'Confirm enrolment with a current authenticator code; turns two-factor on',
    description:
      'Answers ten single-use recovery codes, shown this once. A wrong code is a 400 naming totpCode; ' +
      'no pending enrolment or already on: 409.',
    body: TotpCodeBody,
    response: { 200: RecoveryCodes },
    handler: async ({ body }, ctx) => confirmTotp(ctx, body.totpCode),
  }),
  defineRoute({
    ...AUTHENTICATED,
    method: 'POST',
    path: '/auth/2fa/disable',
    operationId: 'disableTwoFactor',
    errors: ['CONFLICT'],
    access: 'write',
    audit: { resource: 'two-factor' },
    summary: 'Turn two-factor sign-in off',
    description:
      '`totpCode` takes a current authenticator code or an unused recovery code (400 naming totpCode ' +
      'otherwise). The secret is dropped and the remaining recovery codes retired. Not on: 409.',
    body: TotpCodeBody,
    response: { 200: TwoFactorStatus },
    handler: async ({ body }, ctx) => disableTotp(ctx, body.totpCode),
  }),
  defineRoute({
    ...AUTHENTICATED,
    method: 'POST',
    path: '/auth/recovery-codes/regenerate',
    operationId: 'regenerateRecoveryCodes',
    errors: ['CONFLICT'],
    access: 'write',
    audit: { resource: 'two-factor' },
    summary: 'Ten new recovery codes; the old ones stop working',
    description:
      '`totpCode` takes a current authenticator code or an unused recovery code. The new codes are shown ' +
      'this once. Two-factor not on: 409.',
    body: TotpCodeBody,
    response: { 200: RecoveryCodes },
    handler: async ({ body }, ctx) => replaceRecoveryCodes(ctx, body.totpCode),
  }),
];
