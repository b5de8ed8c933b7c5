// Named schemas: a resource, an input or an enum given a name here becomes one entry of the
// OpenAPI document's components.schemas, and every place it is used becomes a $ref to it
// (openapi.ts). TypeBox composes by reference (Type.Object({ a: Invoice }) holds the very
// Invoice object), so the name travels with the object itself: nothing else is declared.
import type { TSchema } from 'typebox';

const names = new WeakMap<object, string>();
const byName = new Map<string, object>();

/** Names `schema` (returns it unchanged). A name is given to one schema only. */
export function named<T extends TSchema>(name: string, schema: T): T {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`Schema name must be PascalCase: ${name}`);
  const existing = byName.get(name);
  if (existing && existing !== schema) throw new Error(`Two schemas are named ${name}`);
  const given = names.get(schema);
  if (given && given !== name) throw new Error(`Schema ${given} is named again as ${name}`);
  names.set(schema, name);
  byName.set(name, schema);
  return schema;
}

export function nameOf(schema: object): string | undefined {
  return names.get(schema);
}
