// multipart/form-data routes (consumes: MULTIPART_CONTENT_TYPE): the parts read into the body and
// validated by its schema, the file handed over as bytes, the wrong media type, part or size refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Type } from 'typebox';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { catalogue } from '../../catalogue.ts';
import { defineRoute } from './catalogue.ts';
import { encodeMultipart, fileProperty, MULTIPART_CONTENT_TYPE } from './multipart.ts';
import { buildOpenApi } from './openapi.ts';

const Upload = Type.Object(
  {
    file: fileProperty('The file'),
    kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
    note: Type.Optional(Type.String({ maxLength: 5 })),
  },
  { additionalProperties: false },
);

const route = defineRoute({
  method: 'POST',
  path: '/api/test-multipart',
  module: 'platform',
  access: 'write',
  auth: 'none',
  summary: 'Test only: an upload with fields',
  consumes: MULTIPART_CONTENT_TYPE,
  bodyLimit: 1024,
  body: Upload,
  response: {
    200: Type.Object({
      size: Type.Integer(),
      name: Type.String(),
      first: Type.String(),
      kind: Type.String(),
    }),
  },
  handler: async ({ body }) => ({
    size: body.file.size,
    name: body.file.filename,
    first: body.file.bytes.subarray(0, 3).toString('hex'),
    kind: body.kind,
  }),
});

let t: TestApp;
before(async () => {
  t = await startTestApp({ extraRoutes: [route], jobsWork: false });
});
after(async () => {
  await t.close();
});

const post = (fields: Record<string, unknown>, files: string[] = []) =>
  t.app.inject({ method: 'POST', url: '/api/test-multipart', ...encodeMultipart(fields, files) });

test('a file and its fields: the handler gets the bytes (any bytes) and the validated fields', async () => {
  const res = await post({ kind: 'a', file: Buffer.from([0xff, 0x00, 0x93, 0x41]) });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { size: 4, name: 'file.dat', first: 'ff0093', kind: 'a' });
});

test("the fields are validated by the body's schema: 400 naming the field", async () => {
  assert.equal(assertProblem(await post({ kind: 'c', file: Buffer.from('x') }), 400).field, 'kind');
  assert.equal(
    assertProblem(await post({ kind: 'a', note: 'too long', file: Buffer.from('x') }), 400).field,
    'note',
  );
  assert.equal(assertProblem(await post({ kind: 'a' }), 400).field, 'file');
  assert.equal(
    assertProblem(await post({ kind: 'a', file: Buffer.from('x'), other: '1' }), 400).field,
    'other',
  );
});

test('a wrong part: the file as a text field, a file where a field goes, a field twice: 400', async () => {
  // encodeMultipart sends a string as text unless named a file.
  assert.equal(assertProblem(await post({ kind: 'a', file: 'text' }), 400).field, 'file');
  assert.equal(
    assertProblem(await post({ kind: Buffer.from('a'), file: Buffer.from('x') }), 400).field,
    'kind',
  );
});

test('not multipart: 415; a file beyond the limit: 413', async () => {
  const json = await t.app.inject({
    method: 'POST',
    url: '/api/test-multipart',
    payload: { kind: 'a', file: 'x' },
  });
  assert.equal(assertProblem(json, 415).code, 'UNSUPPORTED_MEDIA_TYPE');
  assertProblem(await post({ kind: 'a', file: Buffer.alloc(2048, 1) }), 413);
});

test('the document: a multipart/form-data requestBody, the file as format binary', () => {
  const doc = buildOpenApi([route], 'http://localhost') as {
    paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
  };
  const media = doc.paths['/api/test-multipart']!.post.requestBody.content[MULTIPART_CONTENT_TYPE];
  assert.ok(media, 'multipart/form-data');
  assert.match(JSON.stringify(doc), /"file":\{"format":"binary"|"file":\{[^}]*"format":"binary"/);
});

// Issue 35: a multipart request without a boundary answered 500 (seen on POST /api/bank-statements).
test('multipart/form-data without a boundary: 400 naming the body, on every multipart route', async () => {
  const noBoundary = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': MULTIPART_CONTENT_TYPE },
      payload: '--x\r\nContent-Disposition: form-data; name="kind"\r\n\r\na\r\n--x--\r\n',
    });
  const refused = assertProblem(await noBoundary('/api/test-multipart'), 400);
  assert.equal(refused.field, 'body');
  assert.equal(refused.code, 'MALFORMED_BODY');
  const a = await register(t.app);
  const routes = catalogue.filter((r) => r.consumes === MULTIPART_CONTENT_TYPE);
  assert.ok(routes.length > 0, 'the catalogue has multipart routes');
  for (const r of routes) {
    const url = r.path.replace(/\{\w+\}/g, () => crypto.randomUUID());
    const res = await noBoundary(url, { authorization: `Bearer ${a.token}`, 'x-company-id': a.companyId });
    assert.equal(assertProblem(res, 400, `${r.method} ${r.path}`).field, 'body', r.path);
  }
});
