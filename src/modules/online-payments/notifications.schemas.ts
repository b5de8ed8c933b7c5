// Schemas of online payments' API: the gateways (/api/payment-gateways) and the webhook inbox
// with its review queue (/api/payment-notifications).
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { GATEWAYS, NOTIFICATION_KINDS, NOTIFICATION_STATUSES } from './online.tables.ts';

const Ts = Type.String({ format: 'date-time' });

export const GatewayName = named(
  'PaymentGatewayName',
  stringEnum(GATEWAYS, {
    description: 'gatewaya: PayFast-style redirect and ITN; gatewayb: Yoco-style checkouts',
  }),
);

export const PaymentGateway = named(
  'PaymentGateway',
  Type.Object({
    gateway: GatewayName,
    name: Type.String(),
    available: Type.Boolean({ description: 'The gateway can take money: payment links may be made' }),
    reason: nullable(Type.String({ description: 'Why it cannot, in words (null when it can)' })),
    configured: Type.Boolean({ description: 'Some credentials are stored' }),
    merchantId: nullable(
      Type.String({ description: "Gateway A's merchant id (not a secret: its ITNs name it)" }),
    ),
    hasMerchantKey: Type.Boolean(),
    hasPassphrase: Type.Boolean(),
    hasSecretKey: Type.Boolean(),
    hasWebhookSecret: Type.Boolean(),
    amountTolerance: Type.Number({
      description:
        'How far a paid amount may be from what is due and still be recorded without review (rand)',
    }),
    clearingAccountId: nullable(
      uuid({
        description:
          "The bank account (ledger account) online payments are recorded into until the gateway's payout",
      }),
    ),
    updatedAt: nullable(Ts),
  }),
);

export const GatewayParams = Type.Object({ gateway: GatewayName }, { additionalProperties: false });

const Secret = (description: string) =>
  Type.String({ minLength: 1, maxLength: 500, pattern: '^[!-~]+$', description });

export const PaymentGatewayCredentials = named(
  'PaymentGatewayCredentials',
  Type.Object(
    {
      merchantId: Type.Optional(Secret('Gateway A: the merchant id (its ITNs name it)')),
      merchantKey: Type.Optional(Secret('Gateway A: the merchant key (sealed at rest, never answered back)')),
      passphrase: Type.Optional(
        Secret('Gateway A: the passphrase set at the gateway (sealed, never answered back)'),
      ),
      secretKey: Type.Optional(Secret('Gateway B: the secret key (sealed, never answered back)')),
      webhookSecret: Type.Optional(
        Type.String({
          pattern: '^whsec_[A-Za-z0-9+/=]+$',
          maxLength: 500,
          description: "Gateway B: the webhook's signing secret, whsec_… (sealed, never answered back)",
        }),
      ),
      amountTolerance: Type.Optional(
        Type.Number({ minimum: 0, maximum: 1000, multipleOf: 0.01, description: 'Default 0.01 (one cent)' }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ merchantId: '10000100', merchantKey: '46f0cd694581a', passphrase: 'jt7NOE43FZPn' }],
    },
  ),
);

export const NotificationCheck = named(
  'PaymentNotificationCheck',
  Type.Object({
    check: Type.String({
      description: 'signature, validate, merchant, payment_status, amount, replay, reference…',
    }),
    passed: Type.Boolean(),
    detail: Type.String(),
  }),
);

export const NotificationStatus = named(
  'PaymentNotificationStatus',
  stringEnum(NOTIFICATION_STATUSES, {
    description:
      'received: filed, checks under way; matched: recorded against an invoice; review: trusted but not matched ' +
      'confidently (waiting for a person); refused: not trusted (nothing recorded); duplicate: a replay of one ' +
      'already taken; dismissed: a person set it aside with a reason',
  }),
);

export const PaymentNotification = named(
  'PaymentNotification',
  Type.Object({
    id: Uuid,
    gateway: GatewayName,
    kind: stringEnum(NOTIFICATION_KINDS, { description: 'other: an event nothing is done with' }),
    status: NotificationStatus,
    trusted: Type.Boolean({ description: 'The signature verified and (gateway A) the gateway confirmed it' }),
    outcome: Type.String({ description: 'What was done, in words' }),
    checks: Type.Array(NotificationCheck),
    companyId: nullable(Uuid),
    eventId: nullable(Type.String({ description: "Gateway B's webhook-id" })),
    externalPaymentId: nullable(Type.String({ description: "The gateway's id of the payment or refund" })),
    gatewayStatus: nullable(
      Type.String({ description: 'As the gateway put it (payment_status or event type)' }),
    ),
    amount: nullable(Type.Number()),
    fee: nullable(Type.Number()),
    currency: nullable(Type.String()),
    reference: nullable(Type.String({ description: 'The reference the gateway echoed back' })),
    linkId: nullable(Uuid),
    invoiceId: nullable(Uuid),
    paymentId: nullable(uuid({ description: 'The invoice payment recorded from it' })),
    rawBody: Type.String({ description: 'The body exactly as received' }),
    contentType: nullable(Type.String()),
    sourceIp: nullable(Type.String()),
    resolvedAt: nullable(Ts),
    resolvedByType: Type.Unsafe<'user' | 'api_key' | 'system' | null>({
      type: ['string', 'null'],
      enum: ['user', 'api_key', 'system', null],
    }),
    resolvedBy: nullable(Uuid),
    dismissReason: nullable(Type.String()),
    receivedAt: Ts,
    createdAt: Ts,
    updatedAt: Ts,
  }),
);

export const NotificationListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['date', 'updatedAt', 'createdAt'] as const, '-date'),
    status: Type.Optional(NotificationStatus),
    gateway: Type.Optional(GatewayName),
    invoiceId: Type.Optional(uuid({ description: 'Notifications about this invoice' })),
  },
  { additionalProperties: false },
);

export const NotificationMatch = named(
  'PaymentNotificationMatch',
  Type.Object(
    {
      invoiceId: uuid({
        description: 'The invoice (or debit note) the payment is for',
      }),
    },
    { additionalProperties: false, examples: [{ invoiceId: '3fa85f64-5717-4562-b3fc-2c963f66afa6' }] },
  ),
);

export const NotificationDismiss = named(
  'PaymentNotificationDismiss',
  Type.Object(
    { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why it is set aside' }) },
    {
      additionalProperties: false,
      examples: [{ reason: 'Paid twice by the customer: refunded at the gateway' }],
    },
  ),
);
