// Stock transfers between a company's locations (issue 20).
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Transfer, TransferCreate, TransferListQuery, TransferReceive } from './transfers.schemas.ts';
import {
  cancelTransfer,
  createTransfer,
  getTransfer,
  listTransfers,
  receiveTransfer,
} from './transfers.service.ts';

const { read, write } = routeGroup({ module: 'inventory', tag: 'Stock transfers', companyScoped: true });

const NO_ENTRY =
  'A transfer posts nothing: the stock stays in the company, on the same inventory account, and each leg ' +
  'moves out and in at the same value (what the units stood at where they left; out of transit, exactly ' +
  'what went into it), so transit ends at 0 units and R0.00.';

const TransferCancel = Type.Object(
  { date: Type.Optional(Type.String({ format: 'date', description: 'Default: the date it was sent' })) },
  { additionalProperties: false, examples: [{ date: '2026-03-06' }] },
);

export const transfersRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/transfers',
    operationId: 'createStockTransfer',
    errors: ['INSUFFICIENT_STOCK', 'SERIAL_NOT_IN_STOCK', 'CONFLICT'],
    summary: 'Send stock from one location to another (201, status in_transit)',
    description:
      "Each line leaves fromLocationId now, into the company's transit location (TRANSIT, made on first use). " +
      'A batch-tracked product names batchCode; a serial-tracked one names one serial per unit (the line is ' +
      'kept as one line per serial). Taking a location below zero, on the date or at any later date, is a ' +
      '409 INSUFFICIENT_STOCK naming the line unless the product allows negative stock; a serial not at ' +
      `fromLocationId is a 409 SERIAL_NOT_IN_STOCK. ${NO_ENTRY} The company's cost is untouched: the FIFO ` +
      'layers keep their dates and costs. ' +
      'A clientId becomes the id: sent again, 200 with the transfer it made (nothing moves twice); the id ' +
      "of another company's transfer is a 409 naming clientId.",
    body: TransferCreate,
    response: createdOrExisting(Transfer),
    handler: async ({ body }, ctx) => createTransfer(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/transfers',
    operationId: 'listStockTransfers',
    summary: 'Stock transfers, newest first, paged',
    description:
      'Filters: status, updatedSince. sort: date (sent), createdAt, updatedAt; `-` for descending.',
    query: TransferListQuery,
    response: { 200: Paged(Transfer) },
    handler: async ({ query }, ctx) => listTransfers(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/inventory/transfers/{id}',
    operationId: 'getStockTransfer',
    summary: 'One stock transfer with its lines',
    params: IdParams,
    response: { 200: Transfer },
    handler: async ({ params }, ctx) => getTransfer(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/transfers/{id}/receive',
    operationId: 'receiveStockTransfer',
    errors: ['TRANSFER_CLOSED', 'SERIAL_NOT_IN_STOCK'],
    summary: 'Receive a transfer at its destination: out of transit into toLocationId (status received)',
    description: `date must not be before the date sent. A transfer received or cancelled is a 409 TRANSFER_CLOSED. ${NO_ENTRY}`,
    params: IdParams,
    body: TransferReceive,
    response: { 200: Transfer },
    handler: async ({ params, body }, ctx) => receiveTransfer(ctx, params.id, body.date),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/inventory/transfers/{id}/cancel',
    operationId: 'cancelStockTransfer',
    errors: ['TRANSFER_CLOSED', 'SERIAL_NOT_IN_STOCK'],
    summary: 'Cancel a transfer in transit: the stock goes back to fromLocationId (status cancelled)',
    description: `Only while in transit (else 409 TRANSFER_CLOSED). ${NO_ENTRY}`,
    params: IdParams,
    body: TransferCancel,
    response: { 200: Transfer },
    handler: async ({ params, body }, ctx) => cancelTransfer(ctx, params.id, body?.date),
  }),
];
