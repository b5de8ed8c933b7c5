// Request and response shapes of /api/api-keys and of the token exchange (POST /auth/token).
// A key record never carries its secret nor its hash; the plaintext is answered once, at creation.
import { Type } from 'typebox';
import { nullable } from '../http/nullable.ts';
import { DEFAULT_KEY_RATE_LIMIT } from './principal.ts';
import { SCOPES } from './scopes.ts';

const NullableTimestamp = nullable(Type.String({ format: 'date-time' }));

export const ApiKeyIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const ApiKeyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    owner: Type.Union([Type.Literal('user'), Type.Literal('business')], {
      description:
        '`user`: the key acts as you, with your role as it is at each call, and stops when you are deactivated. ' +
        '`business`: the key acts with `roleId` and survives staff leaving.',
    }),
    roleId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Business keys only (required there): a built-in role name or the id of a custom role',
      }),
    ),
    scopes: Type.Array(Type.String({ maxLength: 50 }), {
      minItems: 1,
      maxItems: 100,
      description: `<module>:read or <module>:write (write includes read), or full. One of: ${SCOPES.map((s) => s.scope).join(', ')}`,
    }),
    rateLimitPerMinute: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000, description: `Default ${DEFAULT_KEY_RATE_LIMIT}` }),
    ),
    contactId: Type.Optional(
      Type.String({ format: 'uuid', description: 'The contact the key is for (an integration partner)' }),
    ),
  },
  {
    examples: [
      {
        name: 'Accounting sync',
        owner: 'business',
        roleId: 'accountant',
        scopes: ['invoices:write', 'contacts:read'],
      },
    ],
  },
);

export const ApiKey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  owner: Type.Union([Type.Literal('user'), Type.Literal('business')]),
  userId: nullable(Type.String({ format: 'uuid' }), {
    description: 'The person a user key acts as; null for a business key',
  }),
  roleId: nullable(Type.String(), {
    description: "A business key's role; null for a user key, which acts with its owner's current role",
  }),
  scopes: Type.Array(Type.String()),
  rateLimitPerMinute: Type.Integer(),
  contactId: nullable(Type.String({ format: 'uuid' })),
  prefix: Type.String({ description: 'The start of the key, to recognise it' }),
  lastFour: Type.String({ description: 'The last four characters of the key' }),
  createdBy: Type.String({ format: 'uuid' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([NullableTimestamp], { description: 'The latest token exchange' }),
  revokedAt: NullableTimestamp,
  kind: Type.Union([Type.Literal('key'), Type.Literal('oauth')], {
    description:
      '`oauth`: an app a person connected through OAuth (acts as them, with the scopes they left ticked)',
  }),
  oauthClientId: nullable(Type.String(), { description: 'The connected app, for `oauth`' }),
});

export const ApiKeyCreated = Type.Object({
  ...ApiKey.properties,
  key: Type.String({ description: 'The key itself. Shown this once: it cannot be retrieved later.' }),
});

export const TokenExchangeResponse = Type.Object({
  accessToken: Type.String({ description: 'JWT; send as Authorization: Bearer on /api calls' }),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'Seconds: 3600' }),
  scope: Type.String({ description: 'The granted scopes, space-separated' }),
  tenantId: Type.String({ format: 'uuid' }),
  rateLimitPerMinute: Type.Integer(),
});

export const ScopeList = Type.Array(Type.Object({ scope: Type.String(), label: Type.String() }));
