// The events a webhook may subscribe to (the spec's event table). Each module declares the
// events it emits with defineEvent() beside its code (`<module>.events.ts`): the type, the
// module whose read access a subscriber needs (a person must be allowed to view it, a key must
// hold `<module>:read`), when it is sent, and the schema of its data. The composition root
// (src/events.ts) assembles the modules' declarations into one registry, with the spec's
// events of modules not built yet (subscribable, never sent); the platform imports no module.
// `webhook.test` is sent only by POST /api/webhooks/{id}/test.
import type { Static, TSchema } from 'typebox';
import type { ModuleName } from '../auth/permissions.ts';

/** An event type as a subscriber meets it: its name, the module it needs, when it is sent. */
export interface EventTypeInfo {
  type: string;
  module: ModuleName;
  description: string;
}

/** An event a built module emits: what a subscriber is told, and the schema of its `data`. */
export interface EventDefinition<T extends string = string, S extends TSchema = TSchema>
  extends EventTypeInfo {
  type: T;
  data: S;
}

/** Declares an event of a module (returned unchanged, its type and data schema kept exact). */
export function defineEvent<const T extends string, S extends TSchema>(
  definition: EventDefinition<T, S>,
): EventDefinition<T, S> {
  return definition;
}

/**
 * The data each event of a list carries, by type: what a module adds to the outbox's EventData
 * (outbox.ts), so that emit() takes for each type only data of its declared shape.
 */
export type EventDataOf<L extends readonly EventDefinition[]> = {
  [E in L[number] as E['type']]: Static<E['data']>;
};

export const TEST_EVENT_TYPE = 'webhook.test';

export interface EventRegistry {
  /** Every subscribable type, in the order the document lists them. */
  all: readonly EventTypeInfo[];
  /** The events built modules emit, with their data: the document's `webhooks`. */
  emitted: readonly EventDefinition[];
  /** The spec's events of modules not built yet: subscribable, but nothing sends them yet. */
  notBuilt: readonly EventTypeInfo[];
  info(type: string): EventTypeInfo | undefined;
}

/** The registry of the modules' events and those not built yet; a type declared twice is refused. */
export function eventRegistry(
  emitted: readonly EventDefinition[],
  notBuilt: readonly EventTypeInfo[],
): EventRegistry {
  const all = [...notBuilt, ...emitted];
  const byType = new Map<string, EventTypeInfo>();
  for (const e of all) {
    if (byType.has(e.type) || e.type === TEST_EVENT_TYPE)
      throw new Error(`event type ${e.type} declared twice`);
    byType.set(e.type, e);
  }
  return { all, emitted, notBuilt, info: (type) => byType.get(type) };
}
