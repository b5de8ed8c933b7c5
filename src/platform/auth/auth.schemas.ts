// Request and response shapes of the sign-in routes.
import { Type } from 'typebox';
import { PLANS } from '../../config.ts';

export const PasswordHash = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Lowercase hex SHA-256 of the password. A plaintext password is refused as a wrong one.',
});

export const Email = Type.String({ format: 'email', maxLength: 254 });

export const LoginResponse = Type.Object({
  accessToken: Type.String({ description: 'JWT; send as Authorization: Bearer' }),
  refreshToken: Type.String({ description: 'Single use: POST /auth/refresh answers a new one' }),
  userId: Type.String({ format: 'uuid' }),
  tenantId: Type.String({ format: 'uuid' }),
  email: Type.String(),
  tenantName: Type.String(),
  role: Type.String(),
});

export const RegisterBody = Type.Object({
  tenantName: Type.String({ minLength: 1, maxLength: 200 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Email,
  password: PasswordHash,
  plan: Type.Optional(Type.Union(PLANS.map((p) => Type.Literal(p)))),
  companyName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  baseCurrency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  vatRegistered: Type.Optional(Type.Boolean()),
  vatNumber: Type.Optional(Type.String({ maxLength: 20 })),
});

export const RegisterResponse = Type.Object({
  ...LoginResponse.properties,
  companyId: Type.String({ format: 'uuid' }),
});

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  totpCode: Type.Optional(
    Type.String({ maxLength: 40, description: 'A six-digit authenticator code or a recovery code' }),
  ),
});

export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 400 }) });
