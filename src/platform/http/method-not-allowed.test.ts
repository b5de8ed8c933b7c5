// A known path with a method it does not take: 405 with Allow (issue 35: it answered 404, as for
// a path the service does not know). An unknown path stays 404; a preflight keeps its own answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { catalogue } from '../../catalogue.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

test('DELETE /api/contacts (a collection): 405 METHOD_NOT_ALLOWED, Allow naming GET and POST', async () => {
  const res = await t.app.inject({ method: 'DELETE', url: '/api/contacts' });
  const body = assertProblem(res, 405);
  assert.equal(body.code, 'METHOD_NOT_ALLOWED');
  const allow = String(res.headers.allow).split(', ');
  for (const m of ['GET', 'POST']) assert.ok(allow.includes(m), `Allow: ${res.headers.allow}`);
  assert.ok(!allow.includes('DELETE'));
});

test('a record path: PUT where only GET, PATCH and DELETE are taken; the id is any id', async () => {
  const res = await t.app.inject({ method: 'PUT', url: `/api/contacts/${crypto.randomUUID()}` });
  assertProblem(res, 405);
  const allow = String(res.headers.allow).split(', ');
  for (const m of ['GET', 'PATCH', 'DELETE']) assert.ok(allow.includes(m), `Allow: ${res.headers.allow}`);
});

test('every catalogue path answers 405 (never 404) to a method none of its operations takes', async () => {
  const byPath = new Map<string, Set<string>>();
  for (const r of catalogue) byPath.set(r.path, (byPath.get(r.path) ?? new Set()).add(r.method));
  for (const [path, methods] of byPath) {
    const other = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].find((m) => !methods.has(m));
    if (!other) continue;
    const url = path.replace(/\{\w+\}/g, () => crypto.randomUUID());
    const res = await t.app.inject({ method: other as 'GET', url });
    // Another operation's path may take the method there (/api/x/{id} beside /api/x/summary).
    if (res.statusCode !== 405) {
      assert.notEqual(res.statusCode, 404, `${other} ${path}: ${res.body}`);
      continue;
    }
    for (const m of methods)
      assert.ok(String(res.headers.allow).includes(m), `${other} ${path}: ${res.headers.allow}`);
  }
});

test('a path the service does not know is still a 404', async () => {
  assertProblem(await t.app.inject({ method: 'GET', url: '/api/no-such-thing' }), 404);
  assertProblem(await t.app.inject({ method: 'DELETE', url: '/api/no-such-thing' }), 404);
});
