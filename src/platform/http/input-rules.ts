// Rules every string of every request (body, query string, path) follows, applied once where
// requests are validated (app.ts's validator compiler), so that no route can forget them and
// no bad value reaches a handler or the database:
//
// - Text: no NUL (U+0000) anywhere; PostgreSQL refuses it in text (22021), which used to be a
//   500. A short string (a name, a number, a code, an e-mail: `maxLength` of 500 or less, or
//   none) also refuses the other control characters, U+0001–U+001F but tab, CR and LF, and
//   U+007F: they are never typed, only injected. Long free text (notes, terms, descriptions,
//   OAuth's opaque parameters) keeps them but NUL.
// - Dates: a `format: date` or `date-time` is a real calendar day from 1900-01-01 to
//   9999-12-30 (the day after 9999-12-31 is in year 10000, which the reports cannot name).
// - Ids: a `format: uuid` is the 36-character form only (ajv-formats also takes `urn:uuid:…`),
//   and is lower-cased before the handler sees it, so an id typed in capitals finds the same
//   record, in SQL and in the Maps the services key by id.
//
// The keywords are added to a copy of each schema as it is compiled: the OpenAPI document shows
// the schemas as declared (these rules are described once in its introduction).
import type { Ajv, SchemaValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** The span of days the service accepts. */
export const FIRST_DAY = '1900-01-01';
export const LAST_DAY = '9999-12-30';

/** Longer strings are free text: only NUL is refused there. */
export const FREE_TEXT_OVER = 500;

const NUL = '\u0000';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are the point
const CONTROL = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
export const CONTROL_MESSAGE = 'must not contain control characters';

type Schema = Record<string, unknown>;

const isDay = fullFormats.date as { validate: (s: string) => boolean };
const isMoment = fullFormats['date-time'] as { validate: (s: string) => boolean };

/** Whether a date or date-time names a day the service accepts (its first ten characters). */
export function inDayRange(value: string): boolean {
  const day = value.slice(0, 10);
  return day >= FIRST_DAY && day <= LAST_DAY;
}

/** Adds the keywords and formats to a validator instance (Fastify's ajv `onCreate`). */
export function installInputRules(ajv: Ajv): void {
  const plainText: SchemaValidateFunction = (kind: 'line' | 'text', data: string) => {
    const message = data.includes(NUL)
      ? NUL_MESSAGE
      : kind === 'line' && CONTROL.test(data)
        ? CONTROL_MESSAGE
        : undefined;
    plainText.errors = message ? [{ keyword: 'plainText', message, params: {} }] : [];
    return message === undefined;
  };
  ajv.addKeyword({
    keyword: 'plainText',
    type: 'string',
    schemaType: 'string',
    errors: true,
    validate: plainText,
  });
  ajv.addKeyword({
    keyword: 'lowerCaseId',
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    errors: false,
    validate: ((_on: boolean, data: string, _parent, cxt) => {
      if (cxt?.parentData && UUID.test(data)) {
        (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = data.toLowerCase();
      }
      return true;
    }) satisfies SchemaValidateFunction,
  });
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('date', { type: 'string', validate: (s) => isDay.validate(s) && inDayRange(s) });
  ajv.addFormat('date-time', { type: 'string', validate: (s) => isMoment.validate(s) && inDayRange(s) });
}

/** A copy of `schema` whose every string carries the rules above. */
export function withInputRules<T>(schema: T): T {
  return copy(schema as Schema) as T;
}

function copy(schema: Schema): Schema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Schema = { ...schema };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string')) {
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 0;
    out.plainText = max > FREE_TEXT_OVER ? 'text' : 'line';
    if (schema.format === 'uuid') out.lowerCaseId = true;
  }
  for (const key of ['properties', 'patternProperties', '$defs'] as const) {
    const members = schema[key] as Record<string, Schema> | undefined;
    if (members) out[key] = Object.fromEntries(Object.entries(members).map(([k, v]) => [k, copy(v)]));
  }
  for (const key of ['items', 'additionalProperties', 'not', 'propertyNames'] as const) {
    const member = schema[key];
    if (member && typeof member === 'object' && !Array.isArray(member)) out[key] = copy(member as Schema);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const members = schema[key] as Schema[] | undefined;
    if (Array.isArray(members)) out[key] = members.map(copy);
  }
  return out;
}
