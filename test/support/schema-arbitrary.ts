// fast-check arbitraries from the catalogue's own JSON Schemas (TypeBox), for the fuzzing suite:
// `valid(schema)` makes values the schema accepts; `mutated(schema)` makes values it must refuse
// (a wrong type, a missing required property, an unknown property, a NUL in a string, a number
// outside its range). Only the keywords the catalogue uses are understood; anything else makes
// a value of no particular shape, which the service may accept or refuse but must never 5xx.
import fc, { type Arbitrary } from 'fast-check';

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  examples?: unknown[];
};

const day = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

function stringOf(s: Schema): Arbitrary<string> {
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'date':
      return day;
    case 'date-time':
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2030-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (s.maxLength ?? 254));
    case 'uri':
      return fc.constantFrom('https://example.com/hook', 'https://example.co.za/a?b=c');
  }
  if (s.pattern) {
    const examples = (s.examples ?? []).filter((e): e is string => typeof e === 'string');
    return examples.length ? fc.constantFrom(...examples) : fc.stringMatching(new RegExp(s.pattern));
  }
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  // Printable text, with some letters outside ASCII: names and descriptions are people's words.
  return fc
    .string({ minLength: min, maxLength: max, unit: fc.constantFrom(...'abcXYZ 019-_.,éñ€Ω') })
    .filter((v) => v.trim().length >= Math.min(min, 1) || min === 0);
}

function numberOf(s: Schema, integer: boolean): Arbitrary<number> {
  const lo =
    s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 0.01) : -1000);
  const hi =
    s.maximum ??
    (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 0.01) : lo + 100_000);
  if (integer) return fc.integer({ min: Math.ceil(lo), max: Math.floor(Math.max(lo, hi)) });
  // Money has two decimals: whole cents.
  return fc
    .integer({ min: Math.ceil(lo * 100), max: Math.floor(Math.max(lo, hi) * 100) })
    .map((c) => c / 100);
}

/** Values the schema accepts. */
export function valid(s: Schema, depth = 0): Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return fc.oneof(...union.map((u) => valid(u, depth)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return numberOf(s, true);
    case 'number':
      return numberOf(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? 3, Math.max(min, 3));
      return depth > 3
        ? fc.constant([])
        : fc.array(valid(s.items ?? {}, depth + 1), { minLength: min, maxLength: max });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const model: Record<string, Arbitrary<unknown>> = {};
      for (const [k, p] of Object.entries(props)) model[k] = valid(p, depth + 1);
      return fc.record(model, { requiredKeys: [...required].filter((k) => k in props) });
    }
  }
  return fc.oneof(fc.constant(null), fc.string({ maxLength: 5 }), fc.integer());
}

/** A value of another JSON type than the schema's. */
function wrongType(s: Schema): Arbitrary<unknown> {
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const all: Record<string, Arbitrary<unknown>> = {
    string: fc.constantFrom('not a number', '12abc'),
    number: fc.constantFrom(12.5, -7),
    boolean: fc.constant(true),
    object: fc.constant({ nested: 'x' }),
    array: fc.constant(['x']),
  };
  const others = Object.entries(all)
    .filter(
      ([k]) =>
        k !== type && !(type === 'integer' && k === 'number') && !(type === 'number' && k === 'integer'),
    )
    .map(([, a]) => a);
  return fc.oneof(...others);
}

/**
 * Objects the schema must refuse, each with one thing wrong: an unknown property (when
 * `refusesUnknown`), a missing required property, a property of the wrong type, a NUL in a
 * string property, a number property far outside its range, or not an object at all.
 */
export function mutated(s: Schema, refusesUnknown: boolean): Arbitrary<unknown> {
  const base = valid(s) as Arbitrary<Record<string, unknown>>;
  const props = Object.entries(s.properties ?? {});
  const options: Arbitrary<unknown>[] = [fc.constantFrom('a string', 42, ['an', 'array'])];
  if (refusesUnknown) options.push(base.map((v) => ({ ...v, notAField: 'x' })));
  // A required property with a default is filled in when missing: leaving it out is no fault.
  const required = (s.required ?? []).filter(
    (k) => s.properties?.[k] && s.properties[k].default === undefined,
  );
  if (required.length)
    options.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([v, k]) => {
        const { [k]: _, ...rest } = v;
        return rest;
      }),
    );
  const typed = props.filter(([, p]) => !p.anyOf && !p.oneOf && p.type && p.type !== 'null');
  if (typed.length)
    options.push(
      fc
        .tuple(base, fc.constantFrom(...typed))
        .chain(([v, [k, p]]) => wrongType(p).map((w) => ({ ...v, [k]: w }))),
    );
  const texts = props.filter(([, p]) => p.type === 'string' && !p.enum && !p.format && !p.pattern);
  if (texts.length)
    options.push(
      fc.tuple(base, fc.constantFrom(...texts)).map(([v, [k]]) => ({ ...v, [k]: 'nul\u0000here' })),
    );
  const numbers = props.filter(
    ([, p]) =>
      (p.type === 'number' || p.type === 'integer') && (p.maximum !== undefined || p.minimum !== undefined),
  );
  if (numbers.length)
    options.push(
      fc.tuple(base, fc.constantFrom(...numbers)).map(([v, [k, p]]) => ({
        ...v,
        [k]: p.maximum !== undefined ? p.maximum + 1e9 : (p.minimum as number) - 1e9,
      })),
    );
  return fc.oneof(...options);
}

/**
 * Query strings the route must refuse, each with one thing wrong: an unknown parameter, a number
 * or boolean that is not one, a value outside an enum, a uuid or date that is not one, a NUL.
 */
export function mutatedQuery(s: Schema): Arbitrary<Record<string, string>> {
  const base = (valid(s) as Arbitrary<Record<string, unknown>>).map(asQuery);
  const props = Object.entries(s.properties ?? {});
  const options: Arbitrary<Record<string, string>>[] = [base.map((v) => ({ ...v, notAParameter: 'x' }))];
  const wrong = (p: Schema): string | undefined => {
    if (p.enum) return 'not-one-of-them';
    if (p.type === 'number' || p.type === 'integer' || p.type === 'boolean') return 'abc';
    if (p.format === 'uuid') return 'not-a-uuid';
    if (p.format === 'date') return '2026-02-30';
    if (p.type === 'string') return 'nul\u0000here';
    return undefined;
  };
  const breakable = props.filter(([, p]) => wrong(p) !== undefined);
  if (breakable.length)
    options.push(
      fc.tuple(base, fc.constantFrom(...breakable)).map(([v, [k, p]]) => ({ ...v, [k]: wrong(p)! })),
    );
  return fc.oneof(...options);
}

/** A query object as the strings a URL carries. */
export function asQuery(v: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v ?? {})) if (x !== undefined && x !== null) out[k] = String(x);
  return out;
}
