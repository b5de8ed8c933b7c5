// A claim's receipt: uploaded as the body, told by its bytes, kept and served back as it came.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { claim, claimsSetup } from './expenses.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

test('a PNG or PDF receipt is kept and served back; other bytes, types and sizes are refused', async () => {
  const { clerk, owner } = await claimsSetup(t);
  const c = await claim(clerk);
  assert.equal(c.receipt, null);
  const put = (payload: Buffer, type: string) =>
    clerk({
      method: 'PUT',
      url: `/api/expenses/${c.id}/receipt`,
      payload,
      headers: { 'content-type': type },
    });
  const png = await put(PNG, 'image/png');
  assert.equal(png.statusCode, 200, png.body);
  assert.deepEqual(
    [png.json().receipt.contentType, png.json().receipt.sizeBytes, png.json().receipt.url],
    ['image/png', PNG.length, `/api/expenses/${c.id}/receipt`],
  );
  const got = await owner({ method: 'GET', url: `/api/expenses/${c.id}/receipt` });
  assert.equal(got.statusCode, 200);
  assert.equal(got.headers['content-type'], 'image/png');
  assert.deepEqual(got.rawPayload, PNG);
  // A PDF replaces it.
  assert.equal((await put(PDF, 'application/pdf')).json().receipt.contentType, 'application/pdf');
  const pdf = await owner({ method: 'GET', url: `/api/expenses/${c.id}/receipt` });
  assert.deepEqual([pdf.headers['content-type'], pdf.rawPayload.equals(PDF)], ['application/pdf', true]);
  // A GIF sent as a PNG: its bytes are none of the three (415); a PDF sent as a PNG: 400 naming body.
  assert.equal(
    assertProblem(await put(Buffer.from('GIF89a........'), 'image/png'), 415).code,
    'UNSUPPORTED_MEDIA_TYPE',
  );
  assert.equal(assertProblem(await put(PDF, 'image/png'), 400).field, 'body');
  // Another media type altogether: 415.
  assertProblem(await put(Buffer.from('hello'), 'text/plain'), 415);
  // Past 20 MiB: 413.
  const big = Buffer.concat([PDF, Buffer.alloc(20 * 1024 * 1024)]);
  assertProblem(await put(big, 'application/pdf'), 413);
  // A claim without a receipt: 404.
  const other = await claim(clerk);
  assertProblem(await owner({ method: 'GET', url: `/api/expenses/${other.id}/receipt` }), 404);
});
