// Request and response shapes of forgot / reset / change password.
import { Type } from 'typebox';
import { Email, PasswordHash } from './auth.schemas.ts';

export const ForgotPasswordBody = Type.Object({ email: Email });

export const ForgotPasswordResponse = Type.Object({
  message: Type.String({ description: 'The same text whether or not an account has this address' }),
});

export const ResetPasswordBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 400, description: 'The token from the reset e-mail' }),
  password: PasswordHash,
});

export const ChangePasswordBody = Type.Object({
  currentPassword: PasswordHash,
  newPassword: PasswordHash,
});

export const ChangePasswordResponse = Type.Object({
  otherSessionsRevoked: Type.Integer({
    minimum: 0,
    description: "How many of the user's other sessions were ended; this one stays signed in",
  }),
});
