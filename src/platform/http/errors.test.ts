// The errors contract: every failure is RFC 7807 problem details with exactly type, title,
// status, detail and instance (plus named extensions), served as application/json.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { JSON_BODY_LIMIT } from '../../app.ts';
import { type AnyRoute, defineRoute } from './catalogue.ts';

const SECRET = 'relation "payroll_secrets" does not exist at SELECT * FROM payroll_secrets';

// Routes only this file needs: one that throws, one that hits a SQL error, one with a nested body.
const testRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/test/throws',
    module: 'platform',
    access: 'read',
    auth: 'none',
    summary: 'Throws an unexpected error',
    response: { 200: Type.Object({}) },
    handler: async () => {
      throw new Error(SECRET);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/test/bad-sql',
    module: 'platform',
    access: 'read',
    permission: null,
    summary: 'Runs SQL against a table that does not exist, inside the tenant transaction',
    response: { 200: Type.Object({}) },
    handler: async (_input, ctx) => {
      await sql`select * from payroll_secrets`.execute(ctx.db);
      return {};
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/test/lines',
    module: 'platform',
    access: 'write',
    auth: 'none',
    summary: 'Accepts lines with a positive quantity',
    body: Type.Object({
      lines: Type.Array(Type.Object({ quantity: Type.Integer({ minimum: 1 }) }), { minItems: 1 }),
    }),
    response: { 200: Type.Object({ count: Type.Integer() }) },
    handler: async ({ body }) => ({ count: body.lines.length }),
  }),
];

let t: TestApp;
before(async () => {
  t = await startTestApp({ extraRoutes: testRoutes });
});
after(() => t.close());

const json = { 'content-type': 'application/json' };

describe('errors contract', () => {
  test('an unknown route is a 404 problem, with or without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no/such/route?x=1' });
    const body = assertProblem(res, 404);
    assert.match(body.detail as string, /GET \/no\/such\/route/);
    assertProblem(await t.app.inject({ method: 'DELETE', url: '/api/no-such-thing' }), 404);
  });

  test('malformed JSON is a 400 problem naming the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: json,
      payload: '{"email": "a@b.co.za", ',
    });
    const body = assertProblem(res, 400);
    assert.match(body.detail as string, /^body: /);
    assert.equal(body.field, 'body');
  });

  test('an empty JSON body where one is required is a 400 problem naming the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', headers: json, payload: '' });
    const body = assertProblem(res, 400);
    assert.match(body.detail as string, /^body: /);
  });

  test('a body of a media type the service does not read is a 415 problem; plain text a 400', async () => {
    const xml = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    assertProblem(xml, 415);
    const text = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a@b.co.za',
    });
    assert.equal(assertProblem(text, 400).detail, 'body: must be object');
  });

  test('failed validation is a 400 whose detail names the field', async () => {
    const missing = assertProblem(
      await t.app.inject({ method: 'POST', url: '/auth/login', payload: { password: 'x' } }),
      400,
    );
    assert.equal(missing.detail, 'email: is required');
    assert.equal(missing.field, 'email');

    const a = await register(t.app);
    const res = await as(t.app, a.token)({ method: 'POST', url: '/api/companies', payload: { name: '' } });
    const wrong = assertProblem(res, 400);
    assert.match(wrong.detail as string, /^name: /);
  });

  test('a nested field is named by its path: lines[1].quantity', async () => {
    const low = assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/test/lines',
        payload: { lines: [{ quantity: 2 }, { quantity: 0 }] },
      }),
      400,
    );
    assert.match(low.detail as string, /^lines\[1\]\.quantity: /);
    assert.equal(low.field, 'lines[1].quantity');

    const absent = assertProblem(
      await t.app.inject({ method: 'POST', url: '/test/lines', payload: { lines: [{}] } }),
      400,
    );
    assert.equal(absent.detail, 'lines[0].quantity: is required');

    const ok = await t.app.inject({
      method: 'POST',
      url: '/test/lines',
      payload: { lines: [{ quantity: 3 }] },
    });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('a validation 400 answers every failing field in errors, the first in detail and field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/lines',
      payload: { lines: [{ quantity: 0 }, {}, { quantity: 'two' }] },
    });
    const body = assertProblem(res, 400);
    assert.equal(body.code, 'VALIDATION_FAILED');
    assert.deepEqual(body.errors, [
      { field: 'lines[0].quantity', message: 'must be >= 1' },
      { field: 'lines[1].quantity', message: 'is required' },
      { field: 'lines[2].quantity', message: 'must be integer' },
    ]);
    assert.equal(body.field, 'lines[0].quantity');
    assert.equal(body.detail, 'lines[0].quantity: must be >= 1');

    const a = await register(t.app);
    const company = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/companies',
      payload: { name: '', baseCurrency: 'RANDS', vatRegistered: 'yes' },
    });
    const fields = (assertProblem(company, 400).errors as Array<{ field: string }>).map((e) => e.field);
    assert.deepEqual(fields.sort(), ['baseCurrency', 'name', 'vatRegistered']);
  });

  test('an unknown body property or query parameter is a 400 naming it, and nothing changes', async () => {
    const a = await register(t.app);
    const call = as(t.app, a.token);
    const misspelt = await call({
      method: 'PATCH',
      url: `/api/companies/${a.companyId}`,
      payload: { nmae: 'Renamed (Pty) Ltd' },
    });
    const body = assertProblem(misspelt, 400);
    assert.equal(body.field, 'nmae');
    assert.equal(body.detail, 'nmae: is not an accepted field');
    const after = await call({ method: 'GET', url: `/api/companies/${a.companyId}` });
    assert.notEqual(after.json().name, 'Renamed (Pty) Ltd');

    const query = assertProblem(await call({ method: 'GET', url: '/api/companies?colour=blue' }), 400);
    assert.equal(query.field, 'colour');
    // The service's own routes refuse them too; the OAuth endpoints ignore them (RFC 6749).
    assert.equal(assertProblem(await t.app.inject({ method: 'GET', url: '/health?x=1' }), 400).field, 'x');
  });

  test('a 401 names the Bearer scheme, and says invalid_token when a token was sent', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/companies' });
    assertProblem(none, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer realm="api"');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/companies',
      headers: { authorization: 'Bearer not-a-token' },
    });
    assert.equal(assertProblem(bad, 401).code, 'UNAUTHENTICATED');
    assert.equal(bad.headers['www-authenticate'], 'Bearer realm="api", error="invalid_token"');
  });

  test('a body over 1 MiB is a 413 problem', async () => {
    const payload = JSON.stringify({ email: 'a@b.co.za', password: 'x'.repeat(JSON_BODY_LIMIT) });
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', headers: json, payload });
    const body = assertProblem(res, 413);
    assert.match(body.detail as string, /too large/);
  });

  test('an unexpected exception is a 500 with a generic detail: no message, stack or SQL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/throws' });
    const body = assertProblem(res, 500);
    assert.equal(body.detail, 'An unexpected error occurred. It has been logged.');
    assert.deepEqual(Object.keys(body).sort(), ['code', 'detail', 'instance', 'status', 'title', 'type']);
    assert.equal(body.code, 'INTERNAL_ERROR');
    for (const leak of ['payroll_secrets', 'SELECT', 'Error:', 'errors.test.ts', '    at ']) {
      assert.ok(!res.body.includes(leak), `the 500 body leaks "${leak}": ${res.body}`);
    }
  });

  test('a database error inside a request is a 500 that names no table or statement', async () => {
    const a = await register(t.app);
    const res = await as(t.app, a.token)({ method: 'GET', url: '/test/bad-sql' });
    const body = assertProblem(res, 500);
    assert.equal(body.detail, 'An unexpected error occurred. It has been logged.');
    assert.ok(!/payroll_secrets|select|relation/i.test(res.body), res.body);
    // The failed transaction was rolled back and the connection is usable again.
    const after = await as(t.app, a.token)({ method: 'GET', url: '/api/companies' });
    assert.equal(after.statusCode, 200, after.body);
  });
});
