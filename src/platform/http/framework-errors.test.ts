// Every error the service sends is a problem (issue 15, defect 4): the router's own refusals,
// before any route is found (a path parameter over 100 characters, 414; a malformed % escape,
// 400), and OAuth's token endpoint, whose every 4xx is RFC 6749's { error, error_description }
// with the problem's members (instance included) beside them, whatever refused the request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { ERROR_CODES, type ErrorCode } from './error-codes.ts';
import { MAX_PARAM_LENGTH } from './error-handler.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe("the router's refusals are problems", () => {
  test('a path parameter over the longest the router reads is a 414 problem, URI_TOO_LONG', async () => {
    const long = 'a'.repeat(MAX_PARAM_LENGTH + 1);
    const res = await t.app.inject({ method: 'GET', url: `/api/contacts/${long}` });
    const body = assertProblem(res, 414);
    assert.equal(body.code, 'URI_TOO_LONG');
    assert.equal(body.instance, `/api/contacts/${long}`);
    // At the limit, the route is found (and the token asked for).
    const at = await t.app.inject({ method: 'GET', url: `/api/contacts/${'a'.repeat(MAX_PARAM_LENGTH)}` });
    assertProblem(at, 401);
  });

  test('a malformed % escape is a 400 problem naming the path, on any route', async () => {
    for (const [url, instance] of [
      ['/api/contacts/%zz', '/api/contacts/%zz'],
      ['/health%', '/health%'],
      ['/api/contacts/%E0%A4%A?q=1', '/api/contacts/%E0%A4%A'],
    ]) {
      const body = assertProblem(await t.app.inject({ method: 'GET', url }), 400, url);
      assert.equal(body.code, 'VALIDATION_FAILED');
      assert.equal(body.field, 'path');
      assert.equal(body.instance, instance);
    }
  });
});

/** An OAuth error body: RFC 6749's members and the whole problem beside them. */
function assertOAuthError(res: LightMyRequestResponse, status: number, error: string, context: string) {
  assert.equal(res.statusCode, status, `${context}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/, context);
  const body = res.json();
  assert.equal(body.error, error, context);
  assert.equal(typeof body.error_description, 'string', context);
  for (const member of ['type', 'title', 'status', 'detail', 'instance', 'code']) {
    assert.ok(member in body, `${context}: lacks ${member}`);
  }
  assert.equal(body.instance, '/oauth/token', context);
  assert.equal(body.status, status, context);
  assert.equal(ERROR_CODES[body.code as ErrorCode]?.status, status, `${context}: code ${body.code}`);
}

describe('/oauth/token errors', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  test("the handler's, validation's, and the body's media type's: all OAuth bodies with the problem", async () => {
    const noClient = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: form,
      payload: 'grant_type=authorization_code',
    });
    assertOAuthError(noClient, 401, 'invalid_client', 'no client');
    const nul = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: form,
      payload: 'grant_type=authorization%00code&client_id=x&client_secret=y',
    });
    assertOAuthError(nul, 400, 'invalid_request', 'NUL in the form');
    assert.equal(nul.json().field, 'grant_type');
    const xml = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/xml' },
      payload: '<grant_type>authorization_code</grant_type>',
    });
    assertOAuthError(xml, 415, 'invalid_request', 'an XML body');
  });
});
