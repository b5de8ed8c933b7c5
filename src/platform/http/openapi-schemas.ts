// Turns the catalogue's TypeBox schemas into the document's JSON Schemas: a schema given a
// name (schema-names.ts) is written once under components.schemas and referenced by $ref
// everywhere it is used, so a generated client has one `Invoice` type, not one per operation.
import type { TSchema } from 'typebox';
import { nameOf } from './schema-names.ts';

export type Json = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  private readonly defining = new Set<string>();

  /** The document's form of `schema`: named parts as $refs, each defined once. */
  of(schema: TSchema | Json): Json {
    return this.convert(schema as Json) as Json;
  }

  /** Like `of`, but the top object is written out even when named (a query's parameters). */
  inline(schema: TSchema | Json): Json {
    return this.plain(schema as Json);
  }

  /** A $ref to a component added by hand (Problem, ErrorCode…). */
  add(name: string, schema: Json): Json {
    this.schemas[name] = schema;
    return ref(name);
  }

  private convert(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.convert(v));
    if (!value || typeof value !== 'object') return value;
    const name = nameOf(value);
    if (name) {
      if (!this.schemas[name] && !this.defining.has(name)) {
        this.defining.add(name);
        this.schemas[name] = this.plain(value as Json);
        this.defining.delete(name);
      }
      // A nullable named object is written anyOf [$ref, null] by TypeBox: kept as is.
      return ref(name);
    }
    return this.plain(value as Json);
  }

  /** Copies the enumerable members (TypeBox keeps its markers non-enumerable). */
  private plain(schema: Json): Json {
    const out: Json = {};
    for (const [k, v] of Object.entries(schema)) {
      // Keywords whose values are data, not schemas: copied as they are.
      out[k] =
        k === 'examples' || k === 'default' || k === 'const' || k === 'enum' ? clone(v) : this.convert(v);
    }
    return out;
  }
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function ref(name: string): Json {
  return { $ref: `${REF_PREFIX}${name}` };
}
