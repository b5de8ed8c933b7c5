// The expenses module's events.
import { defineEvent, type EventDataOf } from '../../platform/events/event-types.ts';
import { ExpenseRejected } from './expenses.schemas.ts';

export const expenseEvents = [
  defineEvent({
    type: 'expense.rejected',
    module: 'expenses',
    description: 'An approver rejects an expense claim',
    data: ExpenseRejected,
  }),
] as const;

declare module '../../platform/events/outbox.ts' {
  interface EventData extends EventDataOf<typeof expenseEvents> {}
}
