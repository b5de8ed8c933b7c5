// A schema whose value may also be null, for request bodies and answers alike.
import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * `schema` or null. A scalar becomes one `type: [t, "null"]` schema keeping its keywords
 * (format, maxLength, description), not an anyOf of the schema and null: fast-json-stringify
 * writes an anyOf by running Ajv on the value against each branch in turn (a uuid or date-time
 * format is a regular expression), where a type list is a `typeof` check, and a page of 50
 * invoices has 650 such fields. (Were types coerced, an anyOf's first branch would also turn
 * null into "" or 0 before the null branch is tried.) Anything else (an object, a list of
 * literals) stays an anyOf. `options` (a description) go on the whole.
 */
export function nullable<T extends TSchema>(
  schema: T,
  options: Record<string, unknown> = {},
): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && SCALAR_TYPES.has(type)) {
    // An enum lists null too: else the type list lets null through and the enum refuses it.
    const values = (schema as { enum?: unknown[] }).enum;
    const listed = Array.isArray(values) ? { enum: [...values, null] } : {};
    return Type.Unsafe<Static<T> | null>({ ...schema, ...options, ...listed, type: [type, 'null'] });
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()], options));
}

/** The same for a plain JSON schema of a string or number, typed by the caller. */
export function orNull<T>(
  schema: Record<string, unknown> & { type: 'string' | 'number' },
): TUnsafe<T | null> {
  return Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });
}
