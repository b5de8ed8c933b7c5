// Request and response shapes of two-factor enrolment and recovery codes.
import { Type } from 'typebox';
import { named } from '../http/schema-names.ts';
import { RECOVERY_CODE_COUNT } from './second-factor.ts';

export const TotpCodeBody = named(
  'TwoFactorCode',
  Type.Object(
    {
      totpCode: Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'A six-digit authenticator code (or, where stated, a recovery code)',
      }),
    },
    { additionalProperties: false },
  ),
);

export const TotpEnrolment = named(
  'TwoFactorEnrolment',
  Type.Object({
    otpauthUri: Type.String({ description: 'otpauth://totp/... for an authenticator app (as a QR code)' }),
    secret: Type.String({ description: 'The same secret in base32, for typing in by hand' }),
  }),
);

export const RecoveryCodes = named(
  'RecoveryCodes',
  Type.Object({
    recoveryCodes: Type.Array(Type.String(), {
      minItems: RECOVERY_CODE_COUNT,
      maxItems: RECOVERY_CODE_COUNT,
      description: 'Single-use codes for when the authenticator is lost; shown this once only',
    }),
  }),
);

export const TwoFactorStatus = named(
  'TwoFactorStatus',
  Type.Object({
    enabled: Type.Boolean({ description: 'Sign-in asks for a second factor' }),
    pending: Type.Boolean({ description: 'Enrolled but not yet confirmed with a code' }),
    recoveryCodesLeft: Type.Integer({ minimum: 0 }),
  }),
);
