// Uploaded images are told by their bytes and read through before they are kept: PNGs with and
// without transparency pass, and print; damaged ones (checksums, data that does not inflate,
// unknown row filters, cut short) and other files are refused with the reason; a JPEG's frame
// header gives its size.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { png, pngWithBadFilter, pngWithBrokenData } from '../../../test/support/images.ts';
import { pdfPages } from '../../../test/support/pdf.ts';
import { checkImage, imageSize, MAX_IMAGE_SIDE, sniffImage } from './images.ts';
import { pdfBuffer } from './pdf.ts';

/** The frame of a baseline JPEG of `width` × `height`, three components (no scan data needed to read it). */
function jpegHeader(width: number, height: number, marker = 0xc0): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00,
  ]);
  const sof = Buffer.from([
    0xff,
    marker,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

describe('checkImage', () => {
  test('PNGs with and without transparency pass, with their size', () => {
    assert.deepEqual(checkImage(png(3, 2)), { ok: true, type: 'image/png', width: 3, height: 2 });
    assert.deepEqual(checkImage(png(40, 17, { alpha: false })), {
      ok: true,
      type: 'image/png',
      width: 40,
      height: 17,
    });
    assert.equal(sniffImage(png(1, 1)), 'image/png');
    assert.deepEqual(imageSize(png(3, 2)), { type: 'image/png', width: 3, height: 2 });
    assert.equal(imageSize(Buffer.from('GIF89a')), undefined);
  });

  test('damaged PNGs are refused, saying why', () => {
    const good = png(4, 4);
    const flipped = Buffer.from(good);
    flipped[good.length - 20] = (flipped[good.length - 20]! + 1) % 256;
    const cases: Array<[Buffer, RegExp]> = [
      [flipped, /checksum/],
      [pngWithBrokenData(), /does not decompress/],
      [pngWithBadFilter(), /unknown filter/],
      [good.subarray(0, good.length - 12), /no end|cut short/],
      [good.subarray(0, 30), /cut short/],
    ];
    for (const [bytes, reason] of cases) {
      const r = checkImage(bytes);
      assert.equal(r.ok, false);
      assert.match((r as { reason: string }).reason, reason);
    }
  });

  test('other files are neither PNG nor JPEG', () => {
    for (const bytes of [
      Buffer.from('%PDF-1.7\n'),
      Buffer.from('GIF89a....'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.alloc(0),
    ]) {
      const r = checkImage(bytes);
      assert.equal(r.ok, false);
      assert.match((r as { reason: string }).reason, /neither a PNG nor a JPEG/);
    }
  });

  test("a JPEG's size comes from its frame header; other frames and sizes are refused", () => {
    assert.deepEqual(checkImage(jpegHeader(640, 200)), {
      ok: true,
      type: 'image/jpeg',
      width: 640,
      height: 200,
    });
    assert.deepEqual(checkImage(jpegHeader(300, 120, 0xc2)), {
      ok: true,
      type: 'image/jpeg',
      width: 300,
      height: 120,
    });
    assert.match(
      (checkImage(jpegHeader(10, 10, 0xc3)) as { reason: string }).reason,
      /lossless or arithmetic/,
    );
    assert.match((checkImage(jpegHeader(0, 10)) as { reason: string }).reason, /without its size/);
    assert.match(
      (checkImage(jpegHeader(MAX_IMAGE_SIDE + 1, 10)) as { reason: string }).reason,
      /at most 2000 on each side/,
    );
    assert.match((checkImage(Buffer.from([0xff, 0xd8, 0xff, 0xd9])) as { reason: string }).reason, /JPEG/);
  });

  test('a PNG that passed prints in a PDF (transparency decoded by pdfkit)', async () => {
    const logo = png(60, 20);
    assert.equal(checkImage(logo).ok, true);
    const bytes = await pdfBuffer((pdf) => {
      pdf.image(logo, 40, 40, { fit: [120, 40] });
      pdf.text('With a logo', 40, 100);
    });
    const [page] = await pdfPages(bytes);
    assert.ok(page!.includes('With a logo'));
    assert.ok(bytes.includes('/SMask'), 'the alpha channel became a soft mask');
  });
});
