// Request and response shapes of /api/api-keys and of the token exchange (POST /auth/token).
// A key record never carries its secret nor its hash; the plaintext is answered once, at creation.
import { Type } from 'typebox';
import { stringEnum } from '../http/enums.ts';
import { nullable } from '../http/nullable.ts';
import { Uuid, uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';
import { DEFAULT_KEY_RATE_LIMIT } from './principal.ts';
import { SCOPES } from './scopes.ts';

const NullableTimestamp = nullable(Type.String({ format: 'date-time' }));

/** Every scope a key may be given (GET /api-scopes lists them with a label). */
export const ApiScope = named(
  'ApiScope',
  stringEnum(
    SCOPES.map((s) => s.scope),
    {
      description:
        '`<module>:read`, `<module>:write` (includes read), or `full` (everything the role allows)',
    },
  ),
);

export const ApiKeyOwner = named(
  'ApiKeyOwner',
  stringEnum(['user', 'business'] as const, {
    description:
      '`user`: the key acts as its owner, with their role as it is at each call, and stops when they are ' +
      'deactivated. `business`: the key belongs to the business and survives staff leaving; it acts with ' +
      '`roleId`, or without one with the role of its creator (`createdBy`) as it is at each call.',
  }),
);

export const ApiKeyMode = named(
  'ApiKeyMode',
  stringEnum(['live', 'test'] as const, {
    description:
      '`live` (`bpk_live_`): acts on every company of the business. `test` (`bpk_test_`, made with ' +
      '`X-Company-Id` naming the sandbox company): acts on the sandbox company only; tenant-wide records ' +
      '(contacts, products, companies…) it may read but not change (403 TEST_KEY_SANDBOX_ONLY).',
  }),
);

export const ApiKeyKind = named(
  'ApiKeyKind',
  stringEnum(['key', 'oauth'] as const, {
    description:
      '`key`: made through POST /api/api-keys. `oauth`: an app a person connected through OAuth (acts as ' +
      'them, with the scopes they left ticked)',
  }),
);

export const ApiKeyCreate = named(
  'ApiKeyCreate',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 200 }),
      owner: ApiKeyOwner,
      roleId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description:
            'Business keys only: a built-in role name or the id of a custom role. Left out, the key acts ' +
            "with its creator's role as it is at each call, so it never does more than the person who made it.",
        }),
      ),
      scopes: Type.Array(ApiScope, { minItems: 1, maxItems: 100 }),
      rateLimitPerMinute: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 100_000, description: `Default ${DEFAULT_KEY_RATE_LIMIT}` }),
      ),
      contactId: Type.Optional(uuid({ description: 'The contact the key is for (an integration partner)' })),
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
  ),
);

export const ApiKey = named(
  'ApiKey',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    owner: ApiKeyOwner,
    userId: nullable(Uuid, {
      description: 'The person a user key acts as; null for a business key',
    }),
    roleId: nullable(Type.String(), {
      description:
        "A business key's chosen role. Null for a user key (its owner's current role) and for a business key " +
        "made without one (its creator's current role: see `createdBy`)",
    }),
    scopes: Type.Array(ApiScope),
    rateLimitPerMinute: Type.Integer(),
    contactId: nullable(Uuid),
    mode: ApiKeyMode,
    prefix: Type.String({ description: 'The start of the key, to recognise it: `bpk_live_` or `bpk_test_`' }),
    lastFour: Type.String({ description: 'The last four characters of the key' }),
    createdBy: Uuid,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({
      format: 'date-time',
      description: 'When the key last changed (its revocation); using it does not change it',
    }),
    lastUsedAt: nullable(Type.String({ format: 'date-time' }), { description: 'The latest token exchange' }),
    revokedAt: NullableTimestamp,
    kind: ApiKeyKind,
    oauthClientId: nullable(Type.String(), { description: 'The connected app, for `oauth`' }),
  }),
);

export const ApiKeyCreated = named(
  'ApiKeyCreated',
  Type.Object({
    ...ApiKey.properties,
    key: Type.String({ description: 'The key itself. Shown this once: it cannot be retrieved later.' }),
  }),
);

export const TokenExchangeResponse = named(
  'ApiKeyAccessToken',
  Type.Object({
    accessToken: Type.String({ description: 'JWT; send as Authorization: Bearer on /api calls' }),
    tokenType: stringEnum(['Bearer'] as const),
    expiresIn: Type.Integer({ description: 'Seconds: 3600' }),
    scope: Type.String({ description: 'The granted scopes, space-separated' }),
    tenantId: Uuid,
    rateLimitPerMinute: Type.Integer(),
  }),
);

export const ApiScopeInfo = named('ApiScopeInfo', Type.Object({ scope: ApiScope, label: Type.String() }));

export const ScopeList = Type.Array(ApiScopeInfo);
