import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { OPENAPI_PATH } from '../../app.ts';
import { catalogue } from '../../catalogue.ts';
import { licensedModule } from '../auth/limits.ts';
import { SCOPES } from '../auth/scopes.ts';
import { ERROR_CODE_LIST, ERROR_CODES } from './error-codes.ts';
import { DEVELOPER_PAGES_PREFIX } from './playground.ts';

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  tags: string[];
  requestBody?: { content: Record<string, { schema: Json; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, unknown>;
  security: unknown[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let t: TestApp;
const registered = new Set<string>();
let doc: { openapi: string; info: { title: string }; paths: Record<string, Record<string, Operation>> };

before(async () => {
  t = await startTestApp({
    onRoute: (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        // HEAD is Fastify's automatic twin of every GET; /developers/ holds the playground's
        // pages and assets, which are not API operations.
        if (method === 'HEAD' || route.url.startsWith(DEVELOPER_PAGES_PREFIX)) continue;
        registered.add(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
      }
    },
  });
  const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
  assert.equal(res.statusCode, 200, res.body);
  doc = res.json();
});
after(() => t.close());

function operations() {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}

describe('OpenAPI document', () => {
  test('is OpenAPI 3.1.0, titled v1, served as JSON without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(doc.openapi, '3.1.0');
    assert.match(doc.info.title, /\bv1\b/);
  });

  test('passes the OpenAPI 3.1 schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  test('documents exactly the routes Fastify registered (playground pages aside)', () => {
    const documented = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    const undocumented = [...registered].filter((r) => !documented.has(r)).sort();
    const unregistered = [...documented].filter((r) => !registered.has(r)).sort();
    assert.deepEqual(undocumented, [], 'registered on Fastify but missing from the OpenAPI document');
    assert.deepEqual(unregistered, [], 'in the OpenAPI document but not registered');
    assert.equal(documented.size, catalogue.length);
    assert.ok(
      !Object.keys(doc.paths).some((p) => p.startsWith(DEVELOPER_PAGES_PREFIX)),
      'playground pages are not operations',
    );
  });

  test('every operation has a readable, declared operationId and a described tag', () => {
    const ids = operations().map(({ op }) => op.operationId);
    assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.join(', ')}`);
    const undeclared = catalogue.filter((r) => !r.operationId).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(undeclared, [], 'routes without an operationId');
    for (const id of ids) assert.match(id, /^[a-z][A-Za-z0-9]+$/, id);
    const tags = (doc as unknown as { tags: Array<{ name: string; description: string }> }).tags;
    const described = new Map(tags.map((t) => [t.name, t.description]));
    for (const { path, method, op } of operations()) {
      const [tag] = op.tags;
      assert.ok(tag && described.has(tag), `${method} ${path}: tag ${tag} is listed`);
      assert.notEqual(described.get(tag!), tag, `tag ${tag} has a description`);
    }
  });

  test('security: a token for signed-in routes, with the scope a key or OAuth app needs', () => {
    for (const route of catalogue) {
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      const where = `${route.method} ${route.path}`;
      if (route.auth === 'none') {
        const expected =
          route.security === 'apiKey'
            ? [{ apiKey: [] }]
            : route.security === 'optionalBearer'
              ? [{}, { bearerAuth: [] }]
              : [];
        assert.deepEqual(op.security, expected, where);
        continue;
      }
      if (route.security === 'apiKey') {
        // The key itself (/external/leads), or with keyTokenToo a token exchanged from it.
        const expected = route.keyTokenToo ? [{ apiKey: [] }, { bearerAuth: [] }] : [{ apiKey: [] }];
        assert.deepEqual(op.security, expected, where);
        continue;
      }
      const module = licensedModule(route.module);
      assert.deepEqual(
        op.security,
        module ? [{ bearerAuth: [] }, { oauth2: [`${module}:${route.access}`] }] : [{ bearerAuth: [] }],
        where,
      );
    }
    const auth = doc.paths['/auth/token']!.post!;
    assert.deepEqual(auth.security, [{ apiKey: [] }], 'the key exchange takes the API key as bearer');
    const schemes = (doc as unknown as { components: { securitySchemes: Record<string, Json> } }).components
      .securitySchemes;
    const flow = (schemes.oauth2!.flows as Record<string, Json>).authorizationCode!;
    assert.equal(
      Object.keys(flow.scopes as Json).length,
      SCOPES.length,
      'every scope is in the oauth2 scheme',
    );
  });

  test('every operation declares each error status its declaration implies, as problem+json with a code', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, Json> } }).components.schemas;
    assert.deepEqual(schemas.ErrorCode!.enum, ERROR_CODE_LIST, 'the closed list of codes is the enum');
    assert.deepEqual((schemas.Problem!.properties as Json).code, { $ref: '#/components/schemas/ErrorCode' });
    for (const route of catalogue) {
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      const where = `${route.method} ${route.path}`;
      type Response = { description: string; content?: Json; headers?: Json; $ref?: string };
      const shared = (doc as unknown as { components: { responses: Record<string, Response> } }).components
        .responses;
      // A response shared by several operations is a $ref to components.responses.
      const responses = Object.fromEntries(
        Object.entries(op.responses as Record<string, Response>).map(([status, r]) => [
          status,
          r.$ref ? shared[r.$ref.replace('#/components/responses/', '')]! : r,
        ]),
      );
      const expected = new Set(['500']);
      if (route.auth !== 'none') for (const s of ['401', '403']) expected.add(s);
      if (/\{\w+\}/.test(route.path) || route.companyScoped) expected.add('404');
      if (route.body) for (const s of ['400', '413', '415']) expected.add(s);
      if (route.access === 'write' && route.method !== 'GET') expected.add('409');
      for (const code of route.errors ?? []) expected.add(String(ERROR_CODES[code].status));
      for (const status of expected) {
        const response = responses[status];
        assert.ok(response, `${where} declares ${status}`);
        // OAuth's token endpoint answers RFC 6749 bodies as application/json; 500 stays a problem.
        const media = route.oauthErrors && status !== '500' ? 'application/json' : 'application/problem+json';
        assert.ok(response.content?.[media], `${where} ${status} is ${media}`);
      }
      for (const code of route.errors ?? []) {
        assert.match(
          responses[String(ERROR_CODES[code].status)]!.description,
          new RegExp(`\`${code}\``),
          where,
        );
      }
      if (route.auth !== 'none')
        assert.ok(responses['401']!.headers?.['WWW-Authenticate'], `${where} 401 header`);
      if (responses['429']) assert.ok(responses['429'].headers?.['Retry-After'], `${where} 429 Retry-After`);
    }
    // Metered: every route a key can call, and sign-in under the per-address limit.
    assert.ok(doc.paths['/api/invoices']!.get!.responses['429']);
    assert.ok(doc.paths['/auth/login']!.post!.responses['429']);
  });

  test('resources are named components referenced by $ref, not inlined in each operation', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, Json> } }).components.schemas;
    for (const name of ['Invoice', 'InvoiceLine', 'InvoiceCreate', 'Contact', 'Problem', 'InvoicePage']) {
      assert.ok(schemas[name], `components.schemas.${name}`);
    }
    const get = doc.paths['/api/invoices/{id}']!.get!.responses['200'] as { content: Record<string, Json> };
    assert.deepEqual(get.content['application/json']!.schema, { $ref: '#/components/schemas/Invoice' });
    // The document stays small enough to read and to generate from: it grows with the catalogue,
    // but an operation costs little once its schemas and errors are shared (measured: about
    // 3,400 bytes an operation, 126 operations in 427 KB, 132 in 460 KB; an inlined schema or
    // error response per operation would double it).
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const size = JSON.stringify(doc).length;
    assert.ok(size / operations < 4_000, `document is ${size} bytes for ${operations} operations`);
  });

  test("a create's 201 is listed before its 200", async () => {
    const text = (await t.app.inject({ method: 'GET', url: OPENAPI_PATH })).body;
    const create = text.indexOf('"operationId":"createInvoice"');
    const responses = text.indexOf('"responses":{', create);
    assert.ok(create > 0 && responses > create);
    assert.ok(text.startsWith('"responses":{"201":', responses), text.slice(responses, responses + 40));
    assert.deepEqual(JSON.parse(text), doc, 'the same document as parsed');
  });

  test("request bodies carry the schemas' examples as OpenAPI examples", () => {
    let withExamples = 0;
    for (const route of catalogue) {
      if (!route.body) continue;
      const contentType = route.consumes ?? 'application/json';
      const media = doc.paths[route.path]![route.method.toLowerCase()]!.requestBody!.content[contentType]!;
      const given = (route.body as { examples?: unknown[] }).examples ?? [];
      const shown = Object.values(media.examples ?? {}).map((e) => e.value);
      assert.deepEqual(shown, given, `${route.method} ${route.path}`);
      if (given.length) withExamples++;
    }
    assert.ok(withExamples > 0, 'at least one body (CompanyCreate) carries examples');
    const create = doc.paths['/api/companies']!.post!.requestBody!.content['application/json']!;
    assert.equal((create.examples!.example!.value as { name: string }).name, 'Acme Trading (Pty) Ltd');
  });
});
