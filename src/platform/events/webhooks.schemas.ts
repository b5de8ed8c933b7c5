// Request and response shapes of /api/webhooks. The signing secret is answered once, at
// creation, and never again.
import { Type } from 'typebox';
import { stringEnum } from '../http/enums.ts';
import { nullable } from '../http/nullable.ts';
import { Uuid, uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';
import type { EventRegistry } from './event-types.ts';

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'https only; the address must resolve to the public internet (checked now and again at every delivery). ' +
    'Redirects are never followed.',
});

export const WebhookDisabledReason = named(
  'WebhookDisabledReason',
  stringEnum(['manual', 'failing'], {
    description: '`manual`: switched off by a person or key; `failing`: after five consecutive failed events',
  }),
);

export const WebhookCreatorType = named(
  'WebhookCreatorType',
  stringEnum(['user', 'api_key'], { description: 'Added by a person or by an API key' }),
);

/**
 * The shapes that name the event types a webhook may subscribe to, made from the registry the
 * composition root assembles (src/events.ts): an event type a module declares is accepted (and
 * documented) with no change here. Made once, for the catalogue (the names are the document's).
 */
export function webhookSchemas(events: EventRegistry) {
  const EventType = named(
    'EventType',
    stringEnum(
      events.all.map((e) => e.type),
      {
        description: `An event a webhook can receive: ${events.all.map((e) => `\`${e.type}\` (${e.description})`).join('; ')}.`,
      },
    ),
  );

  const EventTypes = Type.Array(EventType, {
    minItems: 1,
    maxItems: 50,
    description:
      'Event types to receive. You must be allowed to view the module of each (a key: hold its read scope).',
  });

  const WebhookCreate = named(
    'WebhookCreate',
    Type.Object(
      {
        url: Url,
        eventTypes: EventTypes,
        description: Type.Optional(Type.String({ maxLength: 500 })),
      },
      {
        additionalProperties: false,
        examples: [{ url: 'https://hooks.example.com/business-platform', eventTypes: ['invoice.paid'] }],
      },
    ),
  );

  const WebhookUpdate = named(
    'WebhookUpdate',
    Type.Object(
      {
        url: Type.Optional(Url),
        eventTypes: Type.Optional(EventTypes),
        description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
        enabled: Type.Optional(
          Type.Boolean({
            description: 'Switch on or off. Switching a failing webhook back on is always manual.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  );

  const Webhook = named(
    'Webhook',
    Type.Object({
      id: Uuid,
      url: Type.String(),
      eventTypes: Type.Array(EventType),
      description: nullable(Type.String()),
      enabled: Type.Boolean(),
      // A union, not nullable(): nullable() copies a string schema, which would lose the enum's name.
      disabledReason: Type.Union([WebhookDisabledReason, Type.Null()], { description: 'null while enabled' }),
      consecutiveFailures: Type.Integer({ description: 'Events in a row that failed after every retry' }),
      createdBy: Type.Object({
        type: WebhookCreatorType,
        id: uuid({ description: 'The user, or the API key (the webhook stops if it is revoked)' }),
      }),
      createdAt: Type.String({ format: 'date-time' }),
      updatedAt: Type.String({
        format: 'date-time',
        description:
          'The last change: address, event types, description, on or off (also when switched off as failing)',
      }),
    }),
  );

  const WebhookCreated = named(
    'WebhookWithSecret',
    Type.Object({
      ...Webhook.properties,
      secret: Type.String({
        description:
          'The signing secret (`whsec_...`), shown this once. Verify deliveries with it (docs/webhooks.md).',
      }),
    }),
  );

  return { EventType, WebhookCreate, WebhookUpdate, Webhook, WebhookCreated };
}

export type WebhookSchemas = ReturnType<typeof webhookSchemas>;
