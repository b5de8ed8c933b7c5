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

/**
 * A real JPEG (baseline, written by libjpeg through pdftoppm from a rendered invoice page, 17 × 24
 * pixels, 696 bytes), for uploads and printing.
 */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEAAgACAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAYABEDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDvTqMMM0itDdkhiMraSkH8QuD+FKdUtGHzQ3p/7cpuP/HattBETnyYyT1JUUogiGD5SZHQ7RxT0FqSUUUUhhRRRQAUUUUAf//Z',
  'base64',
);
