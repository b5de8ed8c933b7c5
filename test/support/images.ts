// Real images for tests, made byte by byte: PNG files with their chunks and checksums (any
// size, with or without transparency), and damaged ones.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of `width` × `height` pixels in RGBA (or RGB without alpha): a diagonal of the colour on
 * transparent white, or noise. Every row is filtered "none".
 */
export function png(
  width: number,
  height: number,
  opts: { alpha?: boolean; rgb?: number; noise?: boolean } = {},
): Buffer {
  const alpha = opts.alpha ?? true;
  const rgb = opts.rgb ?? 0x1f4e79;
  const channels = alpha ? 4 : 3;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * channels);
    for (let x = 0; x < width; x++) {
      const on = x === y % width;
      const at = 1 + x * channels;
      row[at] = on ? (rgb >> 16) & 255 : 255;
      row[at + 1] = on ? (rgb >> 8) & 255 : 255;
      row[at + 2] = on ? rgb & 255 : 255;
      if (alpha) row[at + 3] = on ? 255 : 0;
      // Noise: pixels that do not compress (a file of a known, larger size).
      if (opts.noise) for (let c = 0; c < channels; c++) row[at + c] = Math.floor(Math.random() * 256);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = alpha ? 6 : 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG whose image data does not decompress, with every checksum right. */
export function pngWithBrokenData(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.from('this is not deflate data at all')),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG whose rows name a filter that does not exist (type 9), with every checksum right. */
export function pngWithBadFilter(): Buffer {
  const good = png(2, 2);
  const rows = Buffer.from([9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const header = good.subarray(8, 8 + 25);
  return Buffer.concat([
    good.subarray(0, 8),
    header,
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
