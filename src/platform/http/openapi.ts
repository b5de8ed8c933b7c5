// The OpenAPI 3.1 description, generated from the route catalogue: the same objects that
// validate requests describe them, so the document cannot drift from the service.
import type { TSchema } from 'typebox';
import { type AnyRoute, COMPANY_HEADER_REQUIRED, successStatus } from './catalogue.ts';

type Json = Record<string, unknown>;

/** A clean JSON Schema copy (TypeBox keeps its markers non-enumerable, so JSON drops them). */
function schemaOf(schema: TSchema): Json {
  return JSON.parse(JSON.stringify(schema)) as Json;
}

const PROBLEM = { $ref: '#/components/schemas/Problem' };

/** Where the interactive console lives; the API description links to its sign-in page. */
export const PLAYGROUND_PATH = '/developers/playground';

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Validation failed or the body is malformed; detail names the field',
  '401': 'Missing, expired or invalidated token',
  '403': 'The role lacks the permission ({ error, resource, action }), or a problem with a code',
  '404': "No such record in the tenant (another tenant's id included)",
  '413': 'The request body is larger than 1 MiB',
  '500': 'Unexpected error; detail is deliberately generic',
};

/** Which generic failures a route can answer, from what it declares. */
function errorApplies(route: AnyRoute, status: string): boolean {
  const user = route.auth !== 'none';
  switch (status) {
    case '400':
      return Boolean(route.body || route.query || route.params || route.companyScoped);
    case '401':
    case '403':
      return user;
    case '404':
      return Boolean(route.params || route.companyScoped);
    case '413':
      return Boolean(route.body);
    default:
      return true;
  }
}

function operationId(route: AnyRoute): string {
  const words = `${route.method.toLowerCase()} ${route.path}`
    .replace(/[{}]/g, '')
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

function parameters(route: AnyRoute): Json[] {
  const out: Json[] = [];
  const params = route.params ? schemaOf(route.params) : undefined;
  for (const name of [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
    const props = (params?.properties ?? {}) as Record<string, Json>;
    out.push({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } });
  }
  if (route.query) {
    const q = schemaOf(route.query);
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
function requestBody(body: TSchema, contentType = 'application/json'): Json {
  const schema = schemaOf(body);
  const given = Array.isArray(schema.examples) ? (schema.examples as unknown[]) : [];
  const examples = Object.fromEntries(
    given.map((value, i) => [given.length === 1 ? 'example' : `example${i + 1}`, { value }]),
  );
  return {
    required: true,
    content: {
      [contentType]: { schema, ...(given.length ? { examples } : {}) },
    },
  };
}

/** "1 MiB", "512 KiB": a body limit as people read it. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function responses(route: AnyRoute): Json {
  const out: Json = {};
  const produced = route.produces === undefined ? ['application/json'] : [route.produces].flat();
  for (const [status, schema] of Object.entries(route.response)) {
    const success = status === String(successStatus(route));
    const files = success
      ? Object.fromEntries(
          (route.files ?? []).map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
        )
      : {};
    const content = Object.fromEntries(produced.map((type) => [type, { schema: schemaOf(schema) }]));
    out[status] = {
      description: success ? 'Success' : 'Also a success',
      ...(status === '204' || status.startsWith('3') ? {} : { content: { ...content, ...files } }),
    };
  }
  for (const [status, generic] of Object.entries(ERROR_RESPONSES)) {
    if (!errorApplies(route, status)) continue;
    const description =
      status === '413' && route.bodyLimit
        ? `The request body is larger than ${sizeText(route.bodyLimit)}`
        : generic;
    const schema =
      status === '403' && route.permission
        ? { oneOf: [{ $ref: '#/components/schemas/PermissionDenial' }, PROBLEM] }
        : PROBLEM;
    out[status] = { description, content: { 'application/json': { schema } } };
  }
  return out;
}

/** The route's own description, then who may call it, so the console shows both. */
function description(route: AnyRoute): string {
  const who =
    route.auth === 'none'
      ? 'No token needed.'
      : route.permission
        ? `Needs the role permission \`${route.permission[0]}:${route.permission[1]}\`.`
        : 'Any signed-in user.';
  const company = route.companyScoped ? ' Company-scoped: send `X-Company-Id`.' : '';
  return [route.description, `${who}${company}`].filter(Boolean).join('\n\n');
}

export function buildOpenApi(routes: AnyRoute[], serverUrl: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const modules: string[] = [];
  for (const route of routes) {
    paths[route.path] ??= {};
    const item = paths[route.path]!;
    const permission = route.auth === 'none' ? undefined : route.permission;
    if (!modules.includes(route.module)) modules.push(route.module);
    item[route.method.toLowerCase()] = {
      operationId: operationId(route),
      summary: route.summary,
      description: description(route),
      tags: [route.module],
      security: route.auth === 'none' ? [] : [{ bearerAuth: [] }],
      parameters: parameters(route),
      ...(route.body ? { requestBody: requestBody(route.body, route.consumes) } : {}),
      responses: responses(route),
      'x-module': route.module,
      'x-access': route.access,
      ...(permission ? { 'x-permission': `${permission[0]}:${permission[1]}` } : {}),
      ...(route.companyScoped ? { 'x-company-scoped': true } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business Platform API v1',
      version: '1.0.0',
      description:
        'One JSON-over-HTTP API for accounting, invoicing, CRM, banking, payroll, inventory, manufacturing and logistics. ' +
        'Every /api call needs a bearer token; company-scoped calls also need X-Company-Id. ' +
        'Errors are RFC 7807 problem details, except a role denial, which answers { error, resource, action }.\n\n' +
        `To try calls from the playground, [sign in](${PLAYGROUND_PATH}/sign-in) (or paste an access token ` +
        'under Authentication): calls then run as that user, in that tenant, with that role. ' +
        'A POST creates a real record and a DELETE really voids one.',
    },
    servers: [{ url: serverUrl }],
    tags: modules.map((name) => ({ name })),
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from POST /auth/login (or, for integrations, POST /auth/token).',
        },
      },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'instance'],
          properties: {
            type: { type: 'string', examples: ['about:blank'] },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string', description: 'Names the offending field for validation errors' },
            instance: { type: 'string', description: 'The request path' },
            code: {
              type: 'string',
              description: 'A machine-readable reason where one exists, e.g. TOTP_REQUIRED',
            },
          },
        },
        PermissionDenial: {
          type: 'object',
          required: ['error', 'resource', 'action'],
          properties: {
            error: { type: 'string' },
            resource: { type: 'string' },
            action: { type: 'string' },
          },
        },
      },
    },
  };
}
