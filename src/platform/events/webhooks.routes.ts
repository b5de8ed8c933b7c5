// /api/webhooks: the business's outbound webhook subscriptions (paths in DECISIONS.md).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { IdParams } from '../http/schema-basics.ts';
import {
  DeliveryListQuery,
  DeliveryParams,
  deliverySchemas,
  Redelivery,
  TestDelivery,
} from './deliveries.schemas.ts';
import { listDeliveries, redeliver, sendTest } from './deliveries.service.ts';
import type { EventRegistry } from './event-types.ts';
import { webhookSchemas } from './webhooks.schemas.ts';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from './webhooks.service.ts';

const audit = { resource: 'webhook' };

/** The routes, for the event types of `events` (the registry src/events.ts assembles). */
export function webhookRoutes(events: EventRegistry): AnyRoute[] {
  const { Webhook, WebhookCreate, WebhookCreated, WebhookUpdate } = webhookSchemas(events);
  const { DeliveryPage } = deliverySchemas(events);
  return [
    defineRoute({
      method: 'POST',
      path: '/api/webhooks',
      operationId: 'createWebhook',
      tag: 'Webhooks',
      errors: ['PLAN_HAS_NO_WEBHOOKS'],
      module: 'admin',
      access: 'write',
      permission: ['admin', 'manage'],
      audit,
      summary: 'Add a webhook; the signing secret (whsec_...) is answered this once',
      description:
        'The address must be https and resolve to the public internet: loopback, private, link-local, CGNAT, ' +
        'multicast and cloud-metadata addresses, in any notation, or names resolving to them, are refused with a ' +
        '400 naming `url` (and checked again at every delivery). An unknown event type is a 400 listing the known ones. ' +
        'For each event type you must be allowed to view ' +
        'its module (403 with resource and action); a key must hold the module’s read scope (403 ' +
        'INSUFFICIENT_SCOPE), and the plan must include it (403 MODULE_NOT_LICENSED). A webhook added with a key ' +
        'stops sending when the key is revoked. Plans below Business: 403 PLAN_HAS_NO_WEBHOOKS.',
      body: WebhookCreate,
      response: { 201: WebhookCreated },
      handler: async ({ body }, ctx) => createWebhook(ctx, events, body),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/webhooks',
      operationId: 'listWebhooks',
      tag: 'Webhooks',
      module: 'admin',
      access: 'read',
      permission: ['admin', 'read'],
      summary: "The business's webhooks (bare array, newest first); never their secrets",
      response: { 200: Type.Array(Webhook) },
      handler: async (_input, ctx) => listWebhooks(ctx),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/webhooks/{id}',
      operationId: 'getWebhook',
      tag: 'Webhooks',
      module: 'admin',
      access: 'read',
      permission: ['admin', 'read'],
      summary: 'One webhook',
      params: IdParams,
      response: { 200: Webhook },
      handler: async ({ params }, ctx) => getWebhook(ctx, params.id),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/webhooks/{id}',
      operationId: 'updateWebhook',
      tag: 'Webhooks',
      module: 'admin',
      access: 'write',
      permission: ['admin', 'manage'],
      audit,
      summary: 'Change the address or event types, or switch the webhook on or off',
      description:
        'The same checks as adding apply to a new `url` or `eventTypes`. `enabled: true` switches a webhook back ' +
        'on, also one switched off after five consecutive failed events, and starts its failure count again.',
      params: IdParams,
      body: WebhookUpdate,
      response: { 200: Webhook },
      handler: async ({ params, body }, ctx) => updateWebhook(ctx, events, params.id, body),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/webhooks/{id}',
      operationId: 'deleteWebhook',
      tag: 'Webhooks',
      module: 'admin',
      access: 'write',
      permission: ['admin', 'manage'],
      audit,
      summary: 'Delete a webhook: it stops sending at once',
      params: IdParams,
      response: { 204: Type.Null() },
      handler: async ({ params }, ctx) => {
        await deleteWebhook(ctx, params.id);
        ctx.reply.code(204);
        return null;
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/api/webhooks/{id}/deliveries',
      operationId: 'listWebhookDeliveries',
      tag: 'Webhooks',
      module: 'admin',
      access: 'read',
      permission: ['admin', 'read'],
      summary:
        "The webhook's deliveries, newest first, each with every attempt and the status the receiver answered",
      description:
        '`updatedSince`: only deliveries queued, attempted or finished since then (a sync learns of status ' +
        'changes). `sort`: `-createdAt` (default) or `createdAt`, ties by id the same way. `eventId`: one event.',
      params: IdParams,
      query: DeliveryListQuery,
      response: { 200: DeliveryPage },
      handler: async ({ params, query }, ctx) => listDeliveries(ctx, params.id, query),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      operationId: 'redeliverWebhookDelivery',
      tag: 'Webhooks',
      errors: ['CONFLICT'],
      module: 'admin',
      access: 'write',
      permission: ['admin', 'manage'],
      audit,
      summary: 'Send a finished delivery again, under the same webhook-id',
      description:
        'A new round of up to eight attempts on the usual schedule. 409 while the delivery is still being ' +
        'attempted, or while the webhook is switched off.',
      params: DeliveryParams,
      response: { 202: Redelivery },
      handler: async ({ params }, ctx) => redeliver(ctx, params.id, params.deliveryId),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/webhooks/{id}/test',
      operationId: 'testWebhook',
      tag: 'Webhooks',
      errors: ['CONFLICT'],
      module: 'admin',
      access: 'write',
      permission: ['admin', 'manage'],
      audit,
      summary: 'Send a signed webhook.test event to this webhook',
      description: 'Delivered and retried like any event; follow it in GET /api/webhooks/{id}/deliveries.',
      params: IdParams,
      response: { 202: TestDelivery },
      handler: async ({ params }, ctx) => sendTest(ctx, params.id),
    }),
  ];
}
