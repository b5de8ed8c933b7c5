// Request and response shapes of forgot / reset / change password.
import { Type } from 'typebox';
import { named } from '../http/schema-names.ts';
import { Email, PasswordHash } from './auth.schemas.ts';

export const ForgotPasswordBody = named(
  'PasswordResetRequest',
  Type.Object({ email: Email }, { additionalProperties: false }),
);

export const ForgotPasswordResponse = named(
  'PasswordResetRequested',
  Type.Object({
    message: Type.String({ description: 'The same text whether or not an account has this address' }),
  }),
);

export const ResetPasswordBody = named(
  'PasswordReset',
  Type.Object(
    {
      token: Type.String({ minLength: 1, maxLength: 400, description: 'The token from the reset e-mail' }),
      password: PasswordHash,
    },
    { additionalProperties: false },
  ),
);

export const ChangePasswordBody = named(
  'PasswordChange',
  Type.Object(
    {
      currentPassword: PasswordHash,
      newPassword: PasswordHash,
    },
    { additionalProperties: false },
  ),
);

export const ChangePasswordResponse = named(
  'PasswordChanged',
  Type.Object({
    otherSessionsRevoked: Type.Integer({
      minimum: 0,
      description: "How many of the user's other sessions were ended; this one stays signed in",
    }),
  }),
);
