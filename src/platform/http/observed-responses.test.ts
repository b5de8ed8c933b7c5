import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { openApiDocument } from '../../openapi-document.ts';
import { defineRoute } from './catalogue.ts';
import { type ObservedResponse, observedResponsesFile, responseValidator } from './observed-responses.ts';

const dir = mkdtempSync(join(tmpdir(), 'bp-observed-test-'));
let t: TestApp;
const before_ = process.env.OBSERVED_RESPONSES_DIR;

before(async () => {
  process.env.OBSERVED_RESPONSES_DIR = dir;
  try {
    t = await startTestApp({
      extraRoutes: [
        defineRoute({
          method: 'GET',
          path: '/test-only/teapot',
          module: 'platform',
          access: 'read',
          auth: 'none',
          summary: 'A route of this test alone',
          response: { 200: Type.Object({}) },
          handler: async () => ({}),
        }),
      ],
    });
  } finally {
    if (before_ === undefined) delete process.env.OBSERVED_RESPONSES_DIR;
    else process.env.OBSERVED_RESPONSES_DIR = before_;
  }
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function recorded(): ObservedResponse[] {
  return readFileSync(observedResponsesFile(dir), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ObservedResponse);
}

describe('observed responses (OBSERVED_RESPONSES_DIR)', () => {
  test("a catalogue operation's answers are recorded with its catalogue path; an error body is checked", async () => {
    const id = crypto.randomUUID();
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/invoices/${id}` })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    const lines = recorded();
    const missingToken = lines.find((l) => l.path === '/api/invoices/{id}');
    assert.deepEqual(
      [missingToken?.method, missingToken?.path, missingToken?.status, missingToken?.validates],
      ['GET', '/api/invoices/{id}', 401, true],
    );
    assert.match(missingToken?.mediaType ?? '', /^application\/(problem\+)?json$/);
    assert.match(missingToken?.source ?? '', /observed-responses\.test\.ts$/);
    assert.ok(lines.some((l) => l.path === '/health' && l.status === 200 && l.validates === undefined));
  });

  test('unknown paths, HEAD and routes outside the document are not recorded', async () => {
    const count = recorded().length;
    assert.equal((await t.app.inject({ method: 'GET', url: '/no/such/path' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'HEAD', url: '/health' })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/test-only/teapot' })).statusCode, 200);
    assert.equal(recorded().length, count);
  });

  test('the validator: a body off its schema, a media type not declared, a status not declared', async () => {
    const v = await responseValidator(openApiDocument('http://localhost:3000'));
    const path = '/api/invoices/{id}';
    const wrong = v.check('GET', path, 404, 'application/problem+json', JSON.stringify({ status: 'no' }));
    assert.equal(wrong.validates, false);
    assert.match(wrong.problem ?? '', /body must have required property 'title'/);
    const media = v.check('GET', path, 404, 'text/html', '<p>gone</p>');
    assert.equal(media.validates, false);
    assert.match(media.problem ?? '', /media type text\/html is not declared for 404/);
    assert.deepEqual(v.check('GET', path, 418, 'application/json', '{}'), { validates: null });
  });
});
