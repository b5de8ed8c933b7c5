// A closed set of strings as one JSON Schema `enum` (not an anyOf of consts), so that
// validators, the OpenAPI document and generated clients all see the same union type.
import { type TUnsafe, Type } from 'typebox';

export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}
