// Schemas of /api/bank-feeds: the spec's Bank feed shape (exactly its fields), the keys a
// connection sends (never answered back), and the accounts those keys can see.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { BANK_FEED_STATUSES, BANK_FEED_SYNC_STATUSES } from './bank-feeds.tables.ts';

const DateOnly = Type.String({ format: 'date' });
const Ts = Type.String({ format: 'date-time' });

export const BankFeed = named(
  'BankFeed',
  Type.Object({
    id: Uuid,
    bankAccountId: uuid({ description: 'The bank account the feed fills' }),
    bankAccountName: Type.String(),
    investecAccountId: Type.String({ description: "The bank's id of the account (Investec's accountId)" }),
    investecAccountName: Type.String(),
    investecAccountMasked: Type.String({ description: 'The last four digits only, e.g. ••••5678' }),
    currency: Type.String({ description: 'ISO 4217' }),
    status: stringEnum(BANK_FEED_STATUSES, { description: 'disconnected: kept with the lines it brought' }),
    statusLabel: Type.String({ description: 'The status in words, with what needs doing' }),
    lastSyncStatus: Type.Unsafe<(typeof BANK_FEED_SYNC_STATUSES)[number] | null>({
      type: ['string', 'null'],
      enum: [...BANK_FEED_SYNC_STATUSES, null],
      description: 'null before the first sync',
    }),
    lastError: nullable(Type.String({ description: "The last failed sync's reason" })),
    attentionReason: nullable(Type.String({ description: 'Why a person must act (needsAttention)' })),
    lastSyncAt: nullable(Ts),
    nextAttemptAt: nullable(
      Type.String({
        format: 'date-time',
        description: 'The next scheduled sync (or retry after a failure); null: none until a person acts',
      }),
    ),
    createdAt: Ts,
    syncFrom: DateOnly,
    syncCount: Type.Integer({ description: 'Syncs that succeeded' }),
    totalImported: Type.Integer({ description: 'Posted lines the feed added, over all syncs' }),
    consecutiveFailures: Type.Integer(),
    needsAttention: Type.Boolean({
      description: 'After 3 failed syncs in a row, or at once when the bank refuses the keys',
    }),
  }),
);

export const BankFeedList = named('BankFeedList', Type.Object({ feeds: Type.Array(BankFeed) }));

// The keys are named investec* in bodies: clientId is every create's idempotency UUID here.
// Sent in HTTP headers (Basic auth, x-api-key): visible ASCII only, as the bank issues them.
const KEY_PATTERN = '^[!-~]+$';
const ClientId = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: KEY_PATTERN,
  description: "The bank's OAuth client id",
});
const ClientSecret = Type.String({
  minLength: 1,
  maxLength: 500,
  pattern: KEY_PATTERN,
  description: 'The client secret',
});
const ApiKey = Type.String({
  minLength: 1,
  maxLength: 500,
  pattern: KEY_PATTERN,
  description: 'The x-api-key',
});

export const BankFeedKeys = named(
  'BankFeedKeys',
  Type.Object(
    { investecClientId: ClientId, investecClientSecret: ClientSecret, investecApiKey: ApiKey },
    {
      additionalProperties: false,
      description: "The customer's read-only Programmable Banking keys: used for this call, not stored",
      examples: [
        {
          investecClientId: 'yAxzQRFX97vOcyQAwluEU6H6ePxMA5eY',
          investecClientSecret: '4dY1v1kyFAkg5s3d',
          investecApiKey:
            'eUF4elFSRlg5N3ZPY3lRQXdsdUVVNkg2ZVB4TUE1ZVk6YVc1MlpYTjBaV010ZW1FdGNHSXRZV05qYjNWdWRITXRjMkZ1WkdKdmVBPT0=',
        },
      ],
    },
  ),
);

export const BankFeedAccountList = named(
  'BankFeedAccountList',
  Type.Object({
    accounts: Type.Array(
      Type.Object({
        investecAccountId: Type.String(),
        investecAccountName: Type.String(),
        investecAccountMasked: Type.String(),
        referenceName: Type.String(),
        productName: Type.String(),
      }),
    ),
  }),
);

export const BankFeedCreate = named(
  'BankFeedCreate',
  Type.Object(
    {
      bankAccountId: Uuid,
      investecClientId: ClientId,
      investecClientSecret: ClientSecret,
      investecApiKey: ApiKey,
      investecAccountId: Type.String({ minLength: 1, maxLength: 100 }),
      syncFrom: Type.String({ format: 'date', description: 'The first day whose lines the feed brings' }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          bankAccountId: '0b9a4b0e-3f7e-4c55-9d8b-5a1f3c2d7e10',
          investecClientId: 'yAxzQRFX97vOcyQAwluEU6H6ePxMA5eY',
          investecClientSecret: '4dY1v1kyFAkg5s3d',
          investecApiKey:
            'eUF4elFSRlg5N3ZPY3lRQXdsdUVVNkg2ZVB4TUE1ZVk6YVc1MlpYTjBaV010ZW1FdGNHSXRZV05qYjNWdWRITXRjMkZ1WkdKdmVBPT0=',
          investecAccountId: '3353431574710166878182963',
          syncFrom: '2026-03-01',
        },
      ],
    },
  ),
);

export const BankFeedUpdate = named(
  'BankFeedUpdate',
  Type.Object(
    {
      investecClientId: Type.Optional(ClientId),
      investecClientSecret: Type.Optional(ClientSecret),
      investecApiKey: Type.Optional(ApiKey),
      syncFrom: Type.Optional(Type.String({ format: 'date' })),
    },
    {
      additionalProperties: false,
      description: 'New keys (all three together: checked with the bank first) and/or a new syncFrom',
    },
  ),
);

export const BankFeedSyncResult = named(
  'BankFeedSyncResult',
  Type.Object({
    ok: Type.Boolean(),
    imported: Type.Integer({ description: 'Posted lines added' }),
    duplicates: Type.Integer({
      description: 'Posted lines the account already held (a file or an earlier sync)',
    }),
    pending: Type.Integer({ description: 'Pending lines added' }),
    superseded: Type.Integer({ description: 'Pending lines that posted or went' }),
    fromDate: nullable(DateOnly),
    toDate: nullable(DateOnly),
    error: nullable(Type.String()),
    feed: BankFeed,
  }),
);
