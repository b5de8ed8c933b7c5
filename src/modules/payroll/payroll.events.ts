// The payroll module's events: a pay run paid (pay-runs.ledger.ts emits it once, when the net
// pay leaves the bank), with the run's dates and totals and never an employee's pay.
import { defineEvent, type EventDataOf } from '../../platform/events/event-types.ts';
import { PayrollRunPaid } from './pay-runs.schemas.ts';

export const payrollEvents = [
  defineEvent({
    type: 'payroll.run.paid',
    module: 'payroll',
    description: 'A pay run is marked paid',
    data: PayrollRunPaid,
  }),
] as const;

declare module '../../platform/events/outbox.ts' {
  interface EventData extends EventDataOf<typeof payrollEvents> {}
}
