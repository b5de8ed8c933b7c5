// Request and response shapes of the sign-in routes.
import { Type } from 'typebox';
import { PLANS } from '../../config.ts';
import { stringEnum } from '../http/enums.ts';
import { Uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';

export const PasswordHash = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Lowercase hex SHA-256 of the password. A plaintext password is refused as a wrong one.',
});

export const Email = Type.String({ format: 'email', maxLength: 254 });

/** The plans a business can be on (DECISIONS.md); what each includes: GET /api/tenant/entitlements. */
export const Plan = named('Plan', stringEnum(PLANS, { description: 'The plan a business is on' }));

export const LoginResponse = named(
  'LoginResponse',
  Type.Object({
    accessToken: Type.String({ description: 'JWT; send as Authorization: Bearer' }),
    refreshToken: Type.String({ description: 'Single use: POST /auth/refresh answers a new one' }),
    userId: Uuid,
    tenantId: Uuid,
    email: Type.String(),
    tenantName: Type.String(),
    role: Type.String({ description: 'A built-in role name or a custom role id' }),
  }),
);

export const RegisterBody = named(
  'RegisterRequest',
  Type.Object(
    {
      tenantName: Type.String({ minLength: 1, maxLength: 200 }),
      name: Type.String({ minLength: 1, maxLength: 200 }),
      email: Email,
      password: PasswordHash,
      plan: Type.Optional(Plan),
      companyName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      baseCurrency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
      vatRegistered: Type.Optional(Type.Boolean()),
      vatNumber: Type.Optional(Type.String({ maxLength: 20 })),
    },
    { additionalProperties: false },
  ),
);

export const RegisterResponse = named(
  'RegisterResponse',
  Type.Object({
    ...LoginResponse.properties,
    companyId: Uuid,
  }),
);

export const LoginBody = named(
  'LoginRequest',
  Type.Object(
    {
      email: Type.String({ minLength: 1, maxLength: 254 }),
      password: Type.String({ minLength: 1, maxLength: 200 }),
      totpCode: Type.Optional(
        Type.String({ maxLength: 40, description: 'A six-digit authenticator code or a recovery code' }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const RefreshBody = named(
  'RefreshRequest',
  Type.Object(
    { refreshToken: Type.String({ minLength: 1, maxLength: 400 }) },
    { additionalProperties: false },
  ),
);
