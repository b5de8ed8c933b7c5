// The events a webhook may subscribe to, assembled from the modules' declarations (each
// module's `<module>.events.ts`, through its index.ts) and the spec's events of modules not
// built yet. The webhook routes take their event types from it, the OpenAPI document's
// `webhooks` describe its emitted events; events.test.ts holds it to what the code emits.
import { billEvents } from './modules/bills/index.ts';
import { contactEvents } from './modules/contacts/index.ts';
import { expenseEvents } from './modules/expenses/index.ts';
import { invoiceEvents } from './modules/invoices/index.ts';
import { payrollEvents } from './modules/payroll/index.ts';
import { type EventTypeInfo, eventRegistry } from './platform/events/event-types.ts';

/**
 * The spec's events of the logistics module, not built yet: a webhook can subscribe to them,
 * but nothing sends them, so the document's `webhooks` leave them out. Each moves to its
 * module's declarations when the module is built.
 */
export const NOT_BUILT_EVENTS: readonly EventTypeInfo[] = [
  {
    type: 'logistics.stop.status_changed',
    module: 'logistics',
    description:
      'A driver sets off for or arrives at a stop, a proof records its outcome, or a cancelled trip releases it',
  },
  {
    type: 'logistics.proof.recorded',
    module: 'logistics',
    description: 'A proof of delivery is recorded (once per proof)',
  },
  { type: 'logistics.trip.dispatched', module: 'logistics', description: 'A trip is handed to the driver' },
  { type: 'logistics.trip.completed', module: 'logistics', description: 'A trip is closed' },
];

export const events = eventRegistry(
  [...invoiceEvents, ...payrollEvents, ...billEvents, ...expenseEvents, ...contactEvents],
  NOT_BUILT_EVENTS,
);
