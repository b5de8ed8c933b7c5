// The schema basics every module's requests and answers are built of, defined once (issue 35,
// item 6): an id (a UUID), an id that may be null, and path parameters made of ids. A module
// never writes the uuid format itself (schema-basics.test.ts fails it), so an id is the same
// schema everywhere and a change to what an id is happens here.
import { type TObject, type TString, Type } from 'typebox';
import { orNull } from './nullable.ts';

/** What a module may add to an id: its description (and, rarely, an example). */
type IdOptions = { description?: string; examples?: unknown[] };

/** An id (a UUID), with a description of what it names. */
export function uuid(options: IdOptions = {}): TString {
  return Type.String({ format: 'uuid', ...options });
}

/** An id (a UUID), as every record's id is written. */
export const Uuid = uuid();

/** An id or null (one `type: [string, null]` schema, as nullable() writes a scalar). */
export function uuidOrNull(options: IdOptions = {}) {
  return orNull<string>({ type: 'string', format: 'uuid', ...options });
}

/**
 * Path parameters that are all ids, closed: a path has no other parameters, and a closed
 * object says so in the document the same way on every route.
 */
export function idParams<K extends string>(...names: K[]): TObject<Record<K, TString>> {
  const properties = Object.fromEntries(names.map((name) => [name, Uuid])) as Record<K, TString>;
  return Type.Object(properties, { additionalProperties: false });
}

/** `{ id }`: the path of one record. */
export const IdParams = idParams('id');
