// Unknown input is refused, not ignored (DECISIONS.md, "Unknown input"): a misspelt field
// that is silently dropped is a change the caller believes was made. Every object schema of
// a route's body and query string that does not say otherwise gets `additionalProperties:
// false`, once, when the catalogue is registered, so validation answers a 400 naming the
// field and the OpenAPI document shows the same closed objects. A schema that states
// `additionalProperties` itself (the OAuth endpoints, which RFC 6749 tells to ignore
// parameters they do not know; free-form maps) is left as it says.
import { type TSchema, Type } from 'typebox';

type Schema = Record<string, unknown>;

/** Closes every open object schema reachable from `schema` (in place; idempotent). */
export function closeObjects(schema: TSchema): void {
  walk(schema as Schema, false);
}

function walk(schema: Schema, underAllOf: boolean): void {
  if (!schema || typeof schema !== 'object') return;
  const isObject = schema.type === 'object' || (schema.properties !== undefined && schema.type === undefined);
  // Members of an allOf each see the whole value: closing one would refuse the others' fields.
  if (isObject && !underAllOf && schema.additionalProperties === undefined && !schema.patternProperties) {
    schema.additionalProperties = false;
  }
  for (const child of Object.values((schema.properties as Record<string, Schema> | undefined) ?? {})) {
    walk(child, false);
  }
  if (schema.items && typeof schema.items === 'object') walk(schema.items as Schema, false);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    walk(schema.additionalProperties as Schema, false);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    for (const member of (schema[key] as Schema[] | undefined) ?? []) walk(member, false);
  }
  for (const member of (schema.allOf as Schema[] | undefined) ?? []) walk(member, true);
}

/**
 * Where unknown input is ignored instead: the OAuth endpoints (RFC 6749 §3.1, §3.2) and the
 * inbound gateway notifications (their protocols add fields over time). Everywhere else (the
 * JSON API under /api, /auth, /external, /admin, and the service's own /health, /diagnostics…)
 * an unknown body property or query parameter is a 400 naming it.
 */
const LENIENT_PREFIXES = ['/oauth/', '/webhooks/'];

export function refusesUnknownInput(path: string): boolean {
  return !LENIENT_PREFIXES.some((p) => path.startsWith(p));
}

/** The query schema of a strict route that declares none: no parameter is accepted. */
export const NO_QUERY = Type.Object({}, { additionalProperties: false });
