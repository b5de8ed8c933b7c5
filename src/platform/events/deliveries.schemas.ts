// Shapes of a webhook's deliveries: the attempt list, redelivery and the test event.
import { Type } from 'typebox';
import { nullable } from '../http/nullable.ts';
import { Paged, pageQueryProperties } from '../http/paging.ts';

export const DeliveryParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  deliveryId: Type.String({ format: 'uuid' }),
});

export const DeliveryListQuery = Type.Object({
  ...pageQueryProperties,
  eventId: Type.Optional(
    Type.String({ format: 'uuid', description: 'Only this event (the webhook-id header)' }),
  ),
});

const Status = Type.Union([
  Type.Literal('pending'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);

export const Attempt = Type.Object({
  attempt: Type.Integer({ description: '1 to 8 in a round; a redelivery goes on counting' }),
  attemptedAt: Type.String({ format: 'date-time' }),
  durationMs: Type.Integer(),
  responseStatus: nullable(Type.Integer(), {
    description: 'The status the receiver answered; null when none came (refused address, timeout, network)',
  }),
  error: nullable(Type.String()),
  responseExcerpt: nullable(Type.String(), { description: 'The first 4 KB of the answer' }),
});

export const Delivery = Type.Object({
  id: Type.String({ format: 'uuid' }),
  eventId: Type.String({ format: 'uuid', description: 'Sent as webhook-id, the same on every attempt' }),
  eventType: Type.String(),
  status: Status,
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: nullable(Type.String({ format: 'date-time' })),
  attempts: Type.Array(Attempt, { description: 'Every attempt, first to last' }),
});

export const DeliveryPage = Paged(Delivery);

export const Redelivery = Type.Object({
  deliveryId: Type.String({ format: 'uuid' }),
  status: Type.Literal('pending'),
});

export const TestDelivery = Type.Object({
  eventId: Type.String({ format: 'uuid' }),
  deliveryId: Type.String({ format: 'uuid' }),
  status: Type.Literal('pending'),
});
