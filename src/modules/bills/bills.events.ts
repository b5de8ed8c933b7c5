// The bills module's events. A bill is the expenses module's (DECISIONS.md): a subscriber
// needs expenses read access.
import { defineEvent, type EventDataOf } from '../../platform/events/event-types.ts';
import { BillRejected } from './bills.schemas.ts';

export const billEvents = [
  defineEvent({
    type: 'bill.rejected',
    module: 'expenses',
    description: 'An approver rejects a supplier bill',
    data: BillRejected,
  }),
] as const;

declare module '../../platform/events/outbox.ts' {
  interface EventData extends EventDataOf<typeof billEvents> {}
}
