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
//   9999-12-30 (the day after 9999-12-31 is in year 10000, which the reports cannot name). A
//   date-time's offset is one a clock has, at most 14 hours either way (Kiribati's +14:00):
//   `+20:00` passed RFC 3339's form, then PostgreSQL refused it in a cast (a 500, issue 35).
// - Ids: a `format: uuid` is the 36-character form only (ajv-formats also takes `urn:uuid:…`),
//   and is lower-cased before the handler sees it, so an id typed in capitals finds the same
//   record, in SQL and in the Maps the services key by id.
// - Closed lists in the query string and the path (`enum`) are read in any case: `?type=customer`
//   is CUSTOMER, `?sort=-updatedat` is -updatedAt (the spec makes the contact list's type filter
//   case-insensitive; a query string is typed by people). The value is replaced by the member
//   before the handler sees it. A body keeps the exact members: it is written by programs, and
//   what it holds is stored.
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

/** The largest UTC offset a clock has: 14 hours (Line Islands); PostgreSQL refuses 16 and more. */
const MAX_OFFSET_MINUTES = 14 * 60;
const OFFSET = /([+-])(\d\d)(?::?(\d\d))?$/;

/** Whether a date-time's offset (none, Z, ±hh, ±hhmm or ±hh:mm) is at most 14 hours. */
export function realOffset(value: string): boolean {
  const m = OFFSET.exec(value.slice(19));
  if (!m) return true;
  return Number(m[2]) * 60 + Number(m[3] ?? 0) <= MAX_OFFSET_MINUTES;
}

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
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s) => isMoment.validate(s) && inDayRange(s) && realOffset(s),
  });
  // Before `enum` (both in ajv's group of keywords for any type), so the member is what enum sees.
  ajv.addKeyword({
    keyword: 'anyCase',
    schemaType: 'boolean',
    modifying: true,
    errors: false,
    before: 'enum',
    validate: ((_on: boolean, data: unknown, parent, cxt) => {
      if (typeof data !== 'string' || !cxt?.parentData) return true;
      const members = (parent as { enum?: unknown[] }).enum ?? [];
      if (members.includes(data)) return true;
      const folded = data.toLowerCase();
      const matches = members.filter((m) => typeof m === 'string' && m.toLowerCase() === folded);
      // Two members that differ only in case: the value must name one exactly.
      if (matches.length === 1)
        (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = matches[0];
      return true;
    }) satisfies SchemaValidateFunction,
  });
}

/**
 * A copy of `schema` whose every string carries the rules above; `httpPart` is Fastify's name of
 * the part it validates (`body`, `querystring`, `params`, `headers`).
 */
export function withInputRules<T>(schema: T, httpPart?: string): T {
  const typed = httpPart === 'querystring' || httpPart === 'params';
  return copy(schema as Schema, typed) as T;
}

function copy(schema: Schema, typed: boolean): Schema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Schema = { ...schema };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string')) {
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 0;
    out.plainText = max > FREE_TEXT_OVER ? 'text' : 'line';
    if (schema.format === 'uuid') out.lowerCaseId = true;
  }
  if (typed && Array.isArray(schema.enum)) out.anyCase = true;
  for (const key of ['properties', 'patternProperties', '$defs'] as const) {
    const members = schema[key] as Record<string, Schema> | undefined;
    if (members) out[key] = Object.fromEntries(Object.entries(members).map(([k, v]) => [k, copy(v, typed)]));
  }
  for (const key of ['items', 'additionalProperties', 'not', 'propertyNames'] as const) {
    const member = schema[key];
    if (member && typeof member === 'object' && !Array.isArray(member))
      out[key] = copy(member as Schema, typed);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const members = schema[key] as Schema[] | undefined;
    if (Array.isArray(members)) out[key] = members.map((m) => copy(m, typed));
  }
  return out;
}
