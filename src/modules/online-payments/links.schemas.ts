// Schemas of payment links: POST/GET /api/invoices/{id}/payment-links and revoking one.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { clientIdProperty } from '../../platform/http/idempotent.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { idParams, Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { GatewayName } from './notifications.schemas.ts';

const Ts = Type.String({ format: 'date-time' });

export const LINK_VIEW_STATUSES = ['active', 'revoked', 'expired', 'paid'] as const;
export type LinkViewStatus = (typeof LINK_VIEW_STATUSES)[number];

export const PaymentLinkStatus = named(
  'PaymentLinkStatus',
  stringEnum(LINK_VIEW_STATUSES, {
    description:
      'active: the page takes payment; revoked: revoked by the business; expired: past expiresAt; ' +
      'paid: the invoice has nothing left due (derived: the link itself is not changed)',
  }),
);

export const PaymentLinkCreate = named(
  'PaymentLinkCreate',
  Type.Object(
    {
      clientId: clientIdProperty,
      gateway: Type.Optional(GatewayName),
      expiresAt: Type.Optional(
        Type.String({ format: 'date-time', description: 'In the future; default 30 days from now' }),
      ),
    },
    { additionalProperties: false, examples: [{ gateway: 'gatewayb' }] },
  ),
);

export const PaymentLink = named(
  'PaymentLink',
  Type.Object({
    id: Uuid,
    invoiceId: Uuid,
    gateway: GatewayName,
    url: Type.String({ description: 'The public pay page (/pay/{token}): send it to the customer' }),
    checkoutUrl: nullable(
      Type.String({ description: "Gateway B: the checkout's redirect address at the gateway" }),
    ),
    amount: Type.Number({ description: 'What was due when the link was made (rand)' }),
    currency: Type.String({ description: 'Always ZAR' }),
    status: PaymentLinkStatus,
    expiresAt: Ts,
    revokedAt: nullable(Ts),
    createdAt: Ts,
    updatedAt: Ts,
  }),
);

export const PaymentLinkParams = idParams('id', 'linkId');

export const PayPageParams = Type.Object(
  { token: Type.String({ maxLength: 64, description: 'The link token' }) },
  { additionalProperties: false },
);

export const PayPageQuery = Type.Object({
  result: Type.Optional(
    stringEnum(['success', 'cancelled', 'failed'] as const, {
      description: 'Set by the gateway sending the payer back',
    }),
  ),
});
