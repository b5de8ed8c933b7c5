// Assertions on the spec's two error bodies: RFC 7807 problem details, and the role
// system's { error, resource, action } denial.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../../src/platform/http/error-codes.ts';
import { titleFor } from '../../src/platform/http/problem.ts';

/** Members a problem may carry besides the five (RFC 7807 extensions the service uses). */
export const PROBLEM_EXTENSIONS = [
  'field',
  'errors',
  'code',
  'scope',
  'limit',
  'retryAfterSeconds',
  'reasons',
  'lockDate',
  'blocking',
  'columnsFound',
  'suggestedMapping',
  'accountsFound',
];

const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'instance', 'code'];

/** Asserts a problem-details answer with this status and returns its body. */
export function assertProblem(
  res: LightMyRequestResponse,
  status: number,
  context = '',
): Record<string, unknown> {
  const where = context ? `${context}: ` : '';
  assert.equal(res.statusCode, status, `${where}expected ${status}, got ${res.statusCode} ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/, `${where}content-type`);
  const body = res.json() as Record<string, unknown>;
  const code = ERROR_CODES[body.code as ErrorCode];
  assert.ok(code, `${where}code ${String(body.code)} is one of the closed list`);
  assert.equal(code.status, status, `${where}code ${String(body.code)} belongs to status ${code.status}`);
  if (status === 401)
    assert.match(String(res.headers['www-authenticate']), /^Bearer /, `${where}WWW-Authenticate`);
  for (const member of PROBLEM_MEMBERS) assert.ok(member in body, `${where}problem lacks ${member}`);
  const extra = Object.keys(body).filter((k) => !PROBLEM_MEMBERS.includes(k));
  for (const k of extra) assert.ok(PROBLEM_EXTENSIONS.includes(k), `${where}unexpected problem member ${k}`);
  assert.equal(body.type, 'about:blank', `${where}type`);
  assert.equal(body.title, titleFor(status), `${where}title`);
  assert.equal(body.status, status, `${where}status member`);
  assert.equal(typeof body.detail, 'string', `${where}detail`);
  assert.ok((body.detail as string).length > 0, `${where}detail is empty`);
  const path = (res.raw.req.url ?? '').split('?')[0];
  assert.equal(body.instance, path, `${where}instance is the request path`);
  return body;
}

/** Asserts the role system's denial: 403 with exactly { error, resource, action }. */
export function assertPermissionDenied(
  res: LightMyRequestResponse,
  resource: string,
  action: string,
  context = '',
) {
  const where = context ? `${context}: ` : '';
  assert.equal(res.statusCode, 403, `${where}expected 403, got ${res.statusCode} ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/, `${where}content-type`);
  const body = res.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['action', 'error', 'resource'], `${where}${res.body}`);
  assert.equal(typeof body.error, 'string', `${where}error`);
  assert.equal(body.resource, resource, `${where}resource`);
  assert.equal(body.action, action, `${where}action`);
}
