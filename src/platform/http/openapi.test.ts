import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { OPENAPI_PATH } from '../../app.ts';
import { catalogue } from '../../catalogue.ts';
import { DEVELOPER_PAGES_PREFIX } from './playground.ts';

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
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

  test('every operation has a unique operationId and the right security', () => {
    const ids = operations().map(({ op }) => op.operationId);
    assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.join(', ')}`);
    for (const route of catalogue) {
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      if (route.auth === 'none') assert.deepEqual(op.security, [], `${route.method} ${route.path}`);
      else {
        assert.deepEqual(op.security, [{ bearerAuth: [] }], `${route.method} ${route.path}`);
        assert.ok(op.responses['401'], `${route.method} ${route.path} documents 401`);
      }
    }
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
