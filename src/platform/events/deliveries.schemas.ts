// Shapes of a webhook's deliveries: the attempt list, redelivery and the test event.
import { Type } from 'typebox';
import { stringEnum } from '../http/enums.ts';
import { nullable } from '../http/nullable.ts';
import { Paged, pageQueryProperties } from '../http/paging.ts';
import { idParams, Uuid, uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';
import { syncQueryProperties } from '../http/sync.ts';
import { type EventRegistry, TEST_EVENT_TYPE } from './event-types.ts';

export const DeliveryParams = idParams('id', 'deliveryId');

export const DeliveryListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['createdAt'], '-createdAt'),
    eventId: Type.Optional(uuid({ description: 'Only this event (the webhook-id header)' })),
  },
  { additionalProperties: false },
);

export const DeliveryStatus = named(
  'WebhookDeliveryStatus',
  stringEnum(['pending', 'succeeded', 'failed', 'cancelled'], {
    description:
      '`pending` while being attempted; `succeeded`, `failed` (every attempt failed, or the receiver answered 410) ' +
      'or `cancelled` (the webhook was switched off or deleted, or its key revoked, before an attempt) once finished',
  }),
);

export const Attempt = named(
  'WebhookDeliveryAttempt',
  Type.Object({
    attempt: Type.Integer({ description: '1 to 8 in a round; a redelivery goes on counting' }),
    attemptedAt: Type.String({ format: 'date-time' }),
    durationMs: Type.Integer(),
    responseStatus: nullable(Type.Integer(), {
      description:
        'The status the receiver answered; null when none came (refused address, timeout, network)',
    }),
    error: nullable(Type.String()),
    responseExcerpt: nullable(Type.String(), { description: 'The first 4 KB of the answer' }),
  }),
);

export const Redelivery = named(
  'WebhookRedelivery',
  Type.Object({
    deliveryId: Uuid,
    status: Type.Literal('pending'),
  }),
);

export const TestDelivery = named(
  'WebhookTestDelivery',
  Type.Object({
    eventId: Uuid,
    deliveryId: Uuid,
    status: Type.Literal('pending'),
  }),
);

/** A delivery and its page: their event type is one of the registry's (webhooks.schemas.ts says why). */
export function deliverySchemas(events: EventRegistry) {
  /** What a delivery carries: a subscribable event, or the test event (POST /api/webhooks/{id}/test). */
  const DeliveryEventType = named(
    'WebhookDeliveryEventType',
    stringEnum([...events.all.map((e) => e.type), TEST_EVENT_TYPE], {
      description: 'The event type delivered: one a webhook subscribes to, or `webhook.test`',
    }),
  );

  const Delivery = named(
    'WebhookDelivery',
    Type.Object({
      id: Uuid,
      eventId: uuid({ description: 'Sent as webhook-id, the same on every attempt' }),
      eventType: DeliveryEventType,
      status: DeliveryStatus,
      createdAt: Type.String({ format: 'date-time' }),
      updatedAt: Type.String({
        format: 'date-time',
        description: 'The latest of: queued, its last attempt, finished (what `updatedSince` compares)',
      }),
      finishedAt: nullable(Type.String({ format: 'date-time' })),
      attempts: Type.Array(Attempt, { description: 'Every attempt, first to last' }),
    }),
  );

  return { Delivery, DeliveryPage: Paged(Delivery) };
}
