// Request and response shapes of /api/webhooks. The signing secret is answered once, at
// creation, and never again.
import { Type } from 'typebox';
import { nullable } from '../http/nullable.ts';
import { EVENT_TYPES } from './event-types.ts';

const eventTypeList = EVENT_TYPES.map((e) => e.type).join(', ');

export const WebhookIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'https only; the address must resolve to the public internet (checked now and again at every delivery). ' +
    'Redirects are never followed.',
});

const EventTypes = Type.Array(Type.String({ maxLength: 100 }), {
  minItems: 1,
  maxItems: 50,
  description: `Event types to receive: ${eventTypeList}. You must be allowed to view the module of each (a key: hold its read scope).`,
});

export const WebhookCreate = Type.Object(
  {
    url: Url,
    eventTypes: EventTypes,
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { examples: [{ url: 'https://hooks.example.com/business-platform', eventTypes: ['invoice.paid'] }] },
);

export const WebhookUpdate = Type.Object({
  url: Type.Optional(Url),
  eventTypes: Type.Optional(EventTypes),
  description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
  enabled: Type.Optional(
    Type.Boolean({ description: 'Switch on or off. Switching a failing webhook back on is always manual.' }),
  ),
});

export const Webhook = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  description: nullable(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.Literal('manual'), Type.Literal('failing'), Type.Null()], {
    description: '`failing`: switched off after five consecutive failed events',
  }),
  consecutiveFailures: Type.Integer({ description: 'Events in a row that failed after every retry' }),
  createdBy: Type.Object({
    type: Type.Union([Type.Literal('user'), Type.Literal('api_key')]),
    id: Type.String({
      format: 'uuid',
      description: 'The user, or the API key (the webhook stops if it is revoked)',
    }),
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const WebhookCreated = Type.Object({
  ...Webhook.properties,
  secret: Type.String({
    description:
      'The signing secret (`whsec_...`), shown this once. Verify deliveries with it (docs/webhooks.md).',
  }),
});
