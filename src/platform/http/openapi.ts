// The OpenAPI 3.1 description, generated from the route catalogue: the same objects that
// validate requests describe them, so the document cannot drift from the service.

import { createHash } from 'node:crypto';
import type { TSchema } from 'typebox';
import { licensedModule } from '../auth/limits.ts';
import { SCOPES } from '../auth/scopes.ts';
import { type AnyRoute, COMPANY_HEADER_REQUIRED, successStatus } from './catalogue.ts';
import { ERROR_CODE_LIST, ERROR_CODES } from './error-codes.ts';
import { conditional } from './etag.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyApplies, REPLAYED_HEADER } from './idempotency-key.ts';
import { FIRST_DAY, FREE_TEXT_OVER, LAST_DAY } from './input-rules.ts';
import { locationTemplate } from './location.ts';
import { errorCodesOf, metered, roleDenial } from './openapi-errors.ts';
import { type Json, ref, SchemaComponents } from './openapi-schemas.ts';
import { titleFor } from './problem.ts';

/** Where the interactive console lives; the API description links to its sign-in page. */
export const PLAYGROUND_PATH = '/developers/playground';

/** The declared id, or (until every route declares one) one made from the method and path. */
function operationId(route: AnyRoute): string {
  if (route.operationId) return route.operationId;
  const words = `${route.method.toLowerCase()} ${route.path}`
    .replace(/[{}]/g, '')
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** What the catalogue-wide conventions give one route (conventions.ts), for its operation. */
interface Conventions {
  etag: boolean;
  ifNoneMatch: boolean;
  ifMatch: boolean;
  idempotencyKey: boolean;
  location: boolean;
}

function conventionsOf(route: AnyRoute, routes: readonly AnyRoute[]): Conventions {
  const c = conditional(route, routes);
  return {
    ...c,
    idempotencyKey: idempotencyApplies(route),
    location: locationTemplate(route, routes) !== undefined,
  };
}

function conventionParameters(conv: Conventions): Json[] {
  const out: Json[] = [];
  if (conv.ifNoneMatch) {
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An ETag from an earlier answer: 304 with no body while the record is unchanged.',
      schema: { type: 'string' },
    });
  }
  if (conv.ifMatch) {
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        "The ETag of the version this change is based on (from the record's GET): 412 PRECONDITION_FAILED when the record has changed since, and nothing is written.",
      schema: { type: 'string' },
    });
  }
  if (conv.idempotencyKey) {
    out.push({
      name: IDEMPOTENCY_KEY_HEADER,
      in: 'header',
      required: false,
      description:
        'Makes the create safe to retry: the same key with the same request answers the stored response (with `Idempotent-Replayed: true`); with a different request, 422 IDEMPOTENCY_KEY_REUSED. Keys are kept 24 hours per tenant; 1–255 printable ASCII characters.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return out;
}

function parameters(route: AnyRoute, c: SchemaComponents, conv: Conventions): Json[] {
  const out: Json[] = conventionParameters(conv);
  const params = route.params ? c.inline(route.params) : undefined;
  for (const name of [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
    const props = (params?.properties ?? {}) as Record<string, Json>;
    out.push({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } });
  }
  if (route.query) {
    const q = c.inline(route.query);
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((q.properties ?? {}) as Record<string, Json>)) {
      const { description, ...rest } = schema;
      out.push({
        name,
        in: 'query',
        required: required.has(name),
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  }
  if (route.companyScoped) {
    out.push({
      name: 'X-Company-Id',
      in: 'header',
      required: true,
      description: `The company this call acts on. Without it: 400 "${COMPANY_HEADER_REQUIRED}".`,
      schema: { type: 'string', format: 'uuid' },
    });
  }
  return out;
}

/**
 * The request body. Examples that the schema carries (JSON Schema `examples`, an array) are
 * also given as the media type's named OpenAPI examples, which is what consoles prefill from.
 */
function requestBody(
  body: TSchema,
  c: SchemaComponents,
  contentType = 'application/json',
  required = true,
): Json {
  const schema = c.of(body);
  const examples0 = (body as { examples?: unknown }).examples;
  const given = Array.isArray(examples0) ? (JSON.parse(JSON.stringify(examples0)) as unknown[]) : [];
  const examples = Object.fromEntries(
    given.map((value, i) => [given.length === 1 ? 'example' : `example${i + 1}`, { value }]),
  );
  return {
    required,
    content: {
      [contentType]: { schema, ...(given.length ? { examples } : {}) },
    },
  };
}

/** A file body: the bytes, as one of the media types the route reads. */
function fileBody(types: readonly string[]): Json {
  return {
    required: true,
    content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])),
  };
}

/** "1 MiB", "512 KiB": a body limit as people read it. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const RATE_HEADERS: Json = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

function successDescription(route: AnyRoute, status: string, isDefault: boolean): string {
  if (status === '201') return 'Created';
  if (status === '204') return 'Done; no body';
  if (status === '200' && route.response[201])
    return 'The existing record: the same clientId (or Idempotency-Key) was sent before';
  return isDefault ? 'Success' : 'Also a success';
}

function successHeaders(route: AnyRoute, status: string, conv: Conventions): Json | undefined {
  const headers: Json = metered(route) && route.auth !== 'none' ? { ...RATE_HEADERS } : {};
  if (conv.etag && status === '200') headers.ETag = { $ref: '#/components/headers/ETag' };
  if (conv.location && status === '201') headers.Location = { $ref: '#/components/headers/Location' };
  if (conv.idempotencyKey && (status === '201' || status === '200')) {
    headers[REPLAYED_HEADER] = { $ref: '#/components/headers/IdempotentReplayed' };
  }
  return Object.keys(headers).length ? headers : undefined;
}

function successResponses(route: AnyRoute, c: SchemaComponents, conv: Conventions): Json {
  const out: Json = {};
  const produced = route.produces === undefined ? ['application/json'] : [route.produces].flat();
  if (conv.ifNoneMatch) {
    out['304'] = {
      description: 'Not modified: If-None-Match names the current version',
      headers: { ETag: { $ref: '#/components/headers/ETag' } },
    };
  }
  for (const [status, schema] of Object.entries(route.response)) {
    const headers = successHeaders(route, status, conv);
    const isDefault = status === String(successStatus(route));
    const files = isDefault
      ? Object.fromEntries(
          (route.files ?? []).map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
        )
      : {};
    const converted = c.of(schema);
    const content = Object.fromEntries(produced.map((type) => [type, { schema: converted }]));
    out[status] = {
      description: successDescription(route, status, isDefault),
      ...(headers ? { headers } : {}),
      ...(status === '204' || status.startsWith('3') ? {} : { content: { ...content, ...files } }),
    };
  }
  return out;
}

function errorDescription(route: AnyRoute, status: number, codes: string[]): string {
  const lead =
    status === 413 && route.bodyLimit
      ? `The request body is larger than ${sizeText(route.bodyLimit)}`
      : status === 403 && roleDenial(route)
        ? 'Forbidden: the role lacks the permission (`{ error, resource, action }`), or a problem with one of these codes'
        : titleFor(status);
  const list = codes.map((code) => `\`${code}\``).join(', ');
  return `${lead}. \`code\`: ${list}.`;
}

function errorResponses(route: AnyRoute, conv: Conventions): Json {
  const out: Json = {};
  // A page (the OAuth sign-in) answers its refusals as pages too.
  const html = [route.produces ?? []].flat().includes('text/html');
  for (const [status, codes] of errorCodesOf(route, {
    ifMatch: conv.ifMatch,
    idempotencyKey: conv.idempotencyKey,
  })) {
    const problem = { $ref: '#/components/schemas/Problem' };
    const schema =
      status === 403 && roleDenial(route)
        ? { oneOf: [{ $ref: '#/components/schemas/PermissionDenial' }, problem] }
        : problem;
    const headers =
      status === 401
        ? { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } }
        : status === 429
          ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' }, ...RATE_HEADERS }
          : undefined;
    // OAuth's token endpoint answers RFC 6749 §5.2 bodies as application/json (429 and 500
    // come from the platform, as problems).
    const content: Json =
      route.oauthErrors && status < 500 && status !== 429
        ? { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } }
        : { 'application/problem+json': { schema } };
    // The role denial is not a problem: it goes out as application/json.
    if (status === 403 && roleDenial(route)) {
      content['application/json'] = { schema: { $ref: '#/components/schemas/PermissionDenial' } };
      content['application/problem+json'] = { schema: problem };
    }
    // 503 too: a page whose dependency is down says so as a page (the pay page, gateway unavailable).
    if (html && (status < 500 || status === 503) && status !== 429)
      content['text/html'] = { schema: { type: 'string' } };
    out[String(status)] = {
      description: errorDescription(route, status, codes),
      ...(headers ? { headers } : {}),
      content,
    };
  }
  return out;
}

/** The route's own description, then who may call it, so the console shows both. */
function description(route: AnyRoute): string {
  const who =
    route.auth === 'none'
      ? route.security === 'apiKey'
        ? 'Authenticated with the API key itself as the bearer token.'
        : 'No token needed.'
      : route.security === 'apiKey'
        ? `Authenticated with the API key itself as the bearer token${route.keyTokenToo ? ' (or a token exchanged from it)' : '; an exchanged access token is refused with 401 API_KEY_REQUIRED'}. The key's role needs \`${route.permission?.join(':')}\`.`
        : route.permission
          ? `Needs the role permission \`${route.permission[0]}:${route.permission[1]}\`.`
          : 'Any signed-in user.';
  const scope = requiredScope(route);
  const key = scope ? ` An API key or OAuth token needs the scope \`${scope}\`.` : '';
  const company = route.companyScoped ? ' Company-scoped: send `X-Company-Id`.' : '';
  return [route.description, `${who}${key}${company}`].filter(Boolean).join('\n\n');
}

/** The scope a key or OAuth token needs for the route; none for personal and public routes. */
function requiredScope(route: AnyRoute): string | undefined {
  if (route.auth === 'none') return undefined;
  const module = licensedModule(route.module);
  return module ? `${module}:${route.access}` : undefined;
}

function security(route: AnyRoute): Json[] {
  if (route.auth === 'none') {
    if (route.security === 'apiKey') return [{ apiKey: [] }];
    // No credential, or a token that shows more.
    if (route.security === 'optionalBearer') return [{}, { bearerAuth: [] }];
    return [];
  }
  const scope = requiredScope(route);
  if (route.security === 'apiKey')
    return route.keyTokenToo ? [{ apiKey: [] }, { bearerAuth: [] }] : [{ apiKey: [] }];
  return scope ? [{ bearerAuth: [] }, { oauth2: [scope] }] : [{ bearerAuth: [] }];
}

export interface OpenApiTag {
  name: string;
  description: string;
}

/** An event a webhook can receive: its type, when it is sent, the scope, its data schema. */
export interface OpenApiEvent {
  type: string;
  description: string;
  scope?: string;
  data: TSchema | Json;
}

export interface OpenApiExtras {
  /** Every tag a route uses, with its description, in the order the console lists them. */
  tags?: OpenApiTag[];
  /** The events sent to webhooks: the document's `webhooks`. */
  events?: OpenApiEvent[];
  /** What the service is: info.description's first paragraph. */
  summary?: string;
}

function tagOf(route: AnyRoute): string {
  return route.tag ?? route.module;
}

const ERROR_CODE_TABLE = ERROR_CODE_LIST.map(
  (code) => `- \`${code}\` (${ERROR_CODES[code].status}): ${ERROR_CODES[code].meaning}`,
).join('\n');

function problemSchemas(c: SchemaComponents) {
  c.add('ErrorCode', {
    type: 'string',
    enum: [...ERROR_CODE_LIST],
    description: `Why a request failed; each code belongs to one HTTP status.\n\n${ERROR_CODE_TABLE}`,
    'x-enum-descriptions': ERROR_CODE_LIST.map((code) => ERROR_CODES[code].meaning),
  });
  c.add('FieldError', {
    type: 'object',
    required: ['field', 'message'],
    properties: {
      field: { type: 'string', description: 'The field, parameter or header, e.g. lines[0].quantity' },
      message: { type: 'string', description: 'What is wrong with it' },
    },
  });
  c.add('Problem', {
    type: 'object',
    description: 'RFC 7807 problem details, sent as application/problem+json.',
    required: ['type', 'title', 'status', 'detail', 'instance', 'code'],
    properties: {
      type: { type: 'string', examples: ['about:blank'] },
      title: { type: 'string', description: "The status's reason phrase" },
      status: { type: 'integer' },
      detail: {
        type: 'string',
        description: 'What went wrong; names the offending field for validation errors',
      },
      instance: { type: 'string', description: 'The request path' },
      code: ref('ErrorCode'),
      field: { type: 'string', description: '400: the first offending field (as named in `detail`)' },
      errors: {
        type: 'array',
        items: ref('FieldError'),
        description: '400 from validation: every failing field',
      },
      limit: { type: 'integer', description: '429: the requests a minute allowed' },
      retryAfterSeconds: { type: 'integer', description: '429: seconds until a retry may succeed' },
      scope: { type: 'string', description: 'INSUFFICIENT_SCOPE: the scope the call needs' },
      reasons: { type: 'array', items: { type: 'string' }, description: '422: every reason' },
      columnsFound: {
        type: 'array',
        items: { type: 'string' },
        description: '422 of a file read by its columns (a CSV no mapping reads): the columns its header has',
      },
      suggestedMapping: {
        type: 'object',
        additionalProperties: true,
        description:
          '422 of a CSV no mapping reads: a mapping that would read it, to check and save (the body of the ' +
          "area's mapping create)",
      },
      accountsFound: {
        type: 'array',
        items: { type: 'string' },
        description: '422 of a file of statements none of which is the account chosen: the accounts it names',
      },
      lockDate: { type: 'string', format: 'date', description: 'PERIOD_LOCKED: the lock date' },
      blocking: {
        type: 'array',
        items: { type: 'object', additionalProperties: true },
        description: 'SANDBOX_IN_USE: the records that point into the sandbox',
      },
    },
  });
  c.add('OAuthError', {
    description:
      "OAuth 2's error answer (RFC 6749 §5.2), sent as application/json, with the problem's members beside it.",
    allOf: [
      ref('Problem'),
      {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'string',
            enum: [
              'invalid_request',
              'invalid_client',
              'invalid_grant',
              'unauthorized_client',
              'unsupported_grant_type',
              'invalid_scope',
            ],
          },
          error_description: { type: 'string' },
        },
      },
    ],
  });
  c.add('PermissionDenial', {
    type: 'object',
    description: "The role system's denial (not a problem): the permission the caller's role lacks.",
    required: ['error', 'resource', 'action'],
    properties: {
      error: { type: 'string' },
      resource: { type: 'string' },
      action: { type: 'string' },
    },
  });
}

const HEADERS: Json = {
  ETag: {
    description: 'The strong entity tag of this version of the record, for If-None-Match and If-Match',
    schema: { type: 'string' },
  },
  Location: { description: 'The address of the created record', schema: { type: 'string' } },
  IdempotentReplayed: {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  RateLimitLimit: { description: 'Requests a minute allowed', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in this window', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window rolls', schema: { type: 'integer' } },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  WWWAuthenticate: {
    description: 'RFC 6750: `Bearer realm="api"`, with `error="invalid_token"` when a token was sent',
    schema: { type: 'string' },
  },
};

function webhooks(events: OpenApiEvent[], c: SchemaComponents): Json {
  const out: Json = {};
  for (const event of events) {
    const data = c.of(event.data);
    out[event.type] = {
      post: {
        operationId: `on${event.type
          .split(/[._]/)
          .map((w) => w[0]!.toUpperCase() + w.slice(1))
          .join('')}`,
        summary: event.description,
        description:
          `${event.description}.${event.scope ? ` A subscriber needs \`${event.scope}\`.` : ''} ` +
          'Signed with Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`); ' +
          'a 2xx within 10 seconds counts as delivered.',
        tags: ['Webhooks'],
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'type', 'createdAt', 'companyId', 'data'],
                properties: {
                  id: {
                    type: 'string',
                    format: 'uuid',
                    description: 'The event id; the same on every retry',
                  },
                  type: { type: 'string', const: event.type },
                  createdAt: { type: 'string', format: 'date-time' },
                  companyId: { type: ['string', 'null'], format: 'uuid' },
                  data,
                },
              },
            },
          },
        },
        responses: {
          '200': { description: 'Delivered (any 2xx)' },
          '410': { description: 'Gone: retries stop at once' },
        },
      },
    };
  }
  return out;
}

const DEFAULT_SUMMARY =
  'One JSON-over-HTTP API for a South African business: companies, contacts, sales documents ' +
  '(invoices, quotes and seven more types), the double-entry ledger and its reports, products, ' +
  'users, roles, API keys, OAuth 2 apps and signed webhooks. ' +
  'Modules a plan includes but this service has not built yet are listed as such by `GET /api/tenant/entitlements`.';

function pascal(code: string): string {
  return code
    .toLowerCase()
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/**
 * Error responses that several operations share word for word (most 401s, 404s, 500s…) are
 * written once under components.responses and referenced: the document stays readable and a
 * generator makes one type of each. A response of one code is named after it (NotFound); one
 * of several after its status and a short digest of its codes.
 */
function shareResponses(paths: Record<string, Record<string, Json>>): Json {
  const uses = new Map<string, number>();
  const each = (fn: (responses: Json, status: string, text: string) => void) => {
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item)) {
        const responses = op.responses as Json;
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) >= 400) fn(responses, status, JSON.stringify(response));
        }
      }
    }
  };
  each((_r, _s, text) => uses.set(text, (uses.get(text) ?? 0) + 1));
  const names = new Map<string, string>();
  const shared: Json = {};
  each((responses, status, text) => {
    if ((uses.get(text) ?? 0) < 2) return;
    let name = names.get(text);
    if (!name) {
      const codes =
        /`code`: (.*)\.$/.exec((JSON.parse(text) as { description: string }).description)?.[1] ?? '';
      const list = [...codes.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
      name =
        list.length === 1
          ? pascal(list[0]!)
          : `${titleFor(Number(status)).replace(/\W/g, '')}_${createHash('sha256').update(text).digest('hex').slice(0, 6)}`;
      while (shared[name] && names.get(text) !== name) name = `${name}_`;
      names.set(text, name);
      shared[name] = JSON.parse(text);
    }
    responses[status] = { $ref: `#/components/responses/${name}` };
  });
  return shared;
}

export function buildOpenApi(routes: AnyRoute[], serverUrl: string, extras: OpenApiExtras = {}): Json {
  const c = new SchemaComponents();
  problemSchemas(c);
  const paths: Record<string, Record<string, Json>> = {};
  const used: string[] = [];
  for (const route of routes) {
    paths[route.path] ??= {};
    const item = paths[route.path]!;
    const conv = conventionsOf(route, routes);
    const permission = route.auth === 'none' ? undefined : route.permission;
    const tag = tagOf(route);
    if (!used.includes(tag)) used.push(tag);
    item[route.method.toLowerCase()] = {
      operationId: operationId(route),
      summary: route.summary,
      description: description(route),
      tags: [tag],
      security: security(route),
      parameters: parameters(route, c, conv),
      ...(route.body ? { requestBody: requestBody(route.body, c, route.consumes, !route.bodyOptional) } : {}),
      ...(route.binaryBody ? { requestBody: fileBody(route.binaryBody) } : {}),
      responses: { ...successResponses(route, c, conv), ...errorResponses(route, conv) },
      'x-module': route.module,
      'x-access': route.access,
      ...(permission ? { 'x-permission': `${permission[0]}:${permission[1]}` } : {}),
      ...(route.companyScoped ? { 'x-company-scoped': true } : {}),
    };
  }
  const responses = shareResponses(paths);
  const described = new Map((extras.tags ?? []).map((t) => [t.name, t]));
  if (extras.events?.length && !used.includes('Webhooks')) used.push('Webhooks');
  const tags = [
    ...(extras.tags ?? []).filter((t) => used.includes(t.name)),
    ...used.filter((name) => !described.has(name)).map((name) => ({ name, description: name })),
  ];
  const base = serverUrl.replace(/\/$/, '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business Platform API v1',
      version: '1.0.0',
      description:
        `${extras.summary ?? DEFAULT_SUMMARY}\n\n` +
        'Every /api call needs a bearer token; company-scoped calls also need X-Company-Id. ' +
        'Errors are RFC 7807 problem details (`application/problem+json`) with a `code` from a closed list, ' +
        'except a role denial, which answers { error, resource, action }. A path no operation has answers ' +
        '404 `NOT_FOUND`; a path that has operations, called with a method none of them takes, answers 405 ' +
        '`METHOD_NOT_ALLOWED` with an `Allow` header naming the methods it takes.\n\n' +
        'Rules every input follows, whatever its schema says: text never holds NUL (U+0000); a string of ' +
        `up to ${FREE_TEXT_OVER} characters (a name, a number, a code, an e-mail) holds no other control character ` +
        '(U+0001–U+001F but tab, CR and LF, nor U+007F); a date or date-time is a day from ' +
        `${FIRST_DAY} to ${LAST_DAY}, and a date-time's offset at most 14 hours; an id (a UUID) may be sent in ` +
        'capitals and is answered in lower case; a closed list (an enum) in the query string or the path is ' +
        'read in any case. ' +
        'Otherwise the answer is a 400 naming the field.\n\n' +
        `To try calls from the playground, [sign in](${PLAYGROUND_PATH}/sign-in) (or paste an access token ` +
        'under Authentication): calls then run as that user, in that tenant, with that role. ' +
        'A POST creates a real record and a DELETE really voids one.',
      license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
      contact: { name: 'Business Platform developers', url: `${base}${PLAYGROUND_PATH}/` },
    },
    servers: [{ url: serverUrl, description: 'This service' }],
    tags,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    ...(extras.events?.length ? { webhooks: webhooks(extras.events, c) } : {}),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'An access token: from POST /auth/login (a person), POST /auth/token (an API key) or POST /oauth/token (an OAuth app).',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key itself (shown once at creation), for POST /auth/token and /external/*.',
        },
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2 authorization code with PKCE (S256) for apps that act for a person.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${base}/oauth/authorize`,
              tokenUrl: `${base}/oauth/token`,
              refreshUrl: `${base}/oauth/token`,
              scopes: Object.fromEntries(SCOPES.map((s) => [s.scope, s.label])),
            },
          },
          'x-usePkce': 'SHA-256',
        },
      },
      headers: HEADERS,
      responses,
      schemas: c.schemas,
    },
  };
}

/**
 * The document as JSON text, with a create's 201 listed before its 200 in `responses`, as a
 * reader (and a generator that takes the first success) expects: a JavaScript object keeps
 * integer-like keys in ascending order whatever order they were added in, so JSON.stringify
 * cannot say it.
 */
export function documentText(document: unknown): string {
  return write(document, false);
}

function write(value: unknown, isResponses: boolean): string {
  if (Array.isArray(value)) return `[${value.map((v) => write(v, false)).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const object = value as Record<string, unknown>;
  let keys = Object.keys(object).filter((k) => object[k] !== undefined);
  if (isResponses && keys.includes('201')) keys = ['201', ...keys.filter((k) => k !== '201')];
  return `{${keys.map((k) => `${JSON.stringify(k)}:${write(object[k], k === 'responses')}`).join(',')}}`;
}
