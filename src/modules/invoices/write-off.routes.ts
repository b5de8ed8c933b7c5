// Reading and undoing a document's bad-debt write-offs and recoveries (write-off-undo.ts). The
// write-off and the recovery themselves are posted by the routes in invoices.routes.ts.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Recovery, RecoveryParams, WriteOff, WriteOffParams } from './write-off.schemas.ts';
import { listRecoveries, listWriteOffs, reverseRecovery, reverseWriteOff } from './write-off-undo.ts';

const { read, write } = routeGroup({ module: 'invoices', companyScoped: true });

export const writeOffRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices/{id}/write-off',
    operationId: 'listInvoiceWriteOffs',
    tag: 'Invoices',
    summary: "The document's bad-debt write-offs, undone ones included, oldest first (bare array)",
    params: IdParams,
    response: { 200: Type.Array(WriteOff) },
    handler: async ({ params }, ctx) => listWriteOffs(ctx, params.id),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices/{id}/write-off/recoveries',
    operationId: 'listBadDebtRecoveries',
    tag: 'Invoices',
    summary:
      "Money recovered on the document's bad debt, undone recoveries included, oldest first (bare array)",
    params: IdParams,
    response: { 200: Type.Array(Recovery) },
    handler: async ({ params }, ctx) => listRecoveries(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/invoices/{id}/write-off/{writeOffId}',
    operationId: 'reverseInvoiceWriteOff',
    tag: 'Invoices',
    errors: ['ALREADY_REVERSED', 'WRITE_OFF_RECOVERED', 'PERIOD_LOCKED'],
    summary: 'Undo a write-off: its entry is reversed, the amount is due again and its VAT claim cancelled',
    description:
      'The reversal is dated as the write-off was (its input tax claim, VAT201 field 17, is cancelled in that ' +
      'period; on or before the lock date: 409 PERIOD_LOCKED). The document is open or partially paid again. ' +
      'While money recovered on the document would be more than what stays written off: 409 ' +
      'WRITE_OFF_RECOVERED (undo the recovery first). Emits invoice.updated. 200 with the write-off, reversed.',
    params: WriteOffParams,
    response: { 200: WriteOff },
    handler: async ({ params }, ctx) => reverseWriteOff(ctx, params.id, params.writeOffId),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/invoices/{id}/write-off/recoveries/{recoveryId}',
    operationId: 'reverseBadDebtRecovery',
    tag: 'Invoices',
    errors: ['ALREADY_REVERSED', 'PERIOD_LOCKED'],
    summary: 'Undo a bad-debt recovery: its entry is reversed, and its output tax cancelled',
    description:
      'The reversal is dated as the recovery was (its output tax, VAT201 field 12, is cancelled in that ' +
      'period). The amount can be recovered again. 200 with the recovery, reversed.',
    params: RecoveryParams,
    response: { 200: Recovery },
    handler: async ({ params }, ctx) => reverseRecovery(ctx, params.id, params.recoveryId),
  }),
];
