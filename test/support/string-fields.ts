// Every string field of a request schema, with the smallest body (or query) that puts a given
// value there: catalogue-driven input tests send a hostile value to each field in turn.

type Schema = Record<string, unknown>;

export interface StringField {
  /** As the validation errors name it: lines[0].description */
  field: string;
  /** The smallest value of the whole schema holding `text` at `field`. */
  holding(text: string): unknown;
}

/** The string fields reachable from `schema` (objects, arrays, unions, nullable types). */
export function stringFields(schema: unknown, depth = 0): StringField[] {
  const s = schema as Schema | undefined;
  if (!s || typeof s !== 'object' || depth > 8) return [];
  const out: StringField[] = [];
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string')) out.push({ field: '', holding: (text) => text });
  for (const [name, member] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
    for (const inner of stringFields(member, depth + 1)) {
      out.push({
        field: inner.field
          ? inner.field.startsWith('[')
            ? name + inner.field
            : `${name}.${inner.field}`
          : name,
        holding: (text) => ({ [name]: inner.holding(text) }),
      });
    }
  }
  if (s.items && typeof s.items === 'object') {
    for (const inner of stringFields(s.items, depth + 1)) {
      out.push({
        field: inner.field
          ? inner.field.startsWith('[')
            ? `[0]${inner.field}`
            : `[0].${inner.field}`
          : '[0]',
        holding: (text) => [inner.holding(text)],
      });
    }
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const member of (s[key] as Schema[] | undefined) ?? []) out.push(...stringFields(member, depth + 1));
  }
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(f.field) && seen.add(f.field));
}
