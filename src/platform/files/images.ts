// Images people upload to be printed (a template's logo): PNG or JPEG, told by their bytes, not
// by the name or type they came with, and read through before they are kept. pdfkit decodes a
// PNG with transparency in a zlib callback that throws on damaged data, which nothing can catch
// (the process would stop), so a PNG is inflated and its rows checked here, synchronously,
// before it is accepted; a JPEG's frame header is read the way pdfkit reads it.
import { crc32, inflateSync } from 'node:zlib';

export const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/**
 * Neither side longer than this many pixels: a logo prints about 170 × 60 points (some 700 × 250
 * pixels at 300 dpi), and pdfkit decodes a PNG with transparency whole every time it prints.
 */
export const MAX_IMAGE_SIDE = 2000;

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

export type ImageCheck = ({ ok: true } & ImageInfo) | { ok: false; reason: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type the bytes say they are (their signature), whatever they were called. */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** Reads the image through: a PNG or JPEG that prints, or why not. */
export function checkImage(bytes: Uint8Array): ImageCheck {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = sniffImage(b);
  if (!type) return { ok: false, reason: 'is neither a PNG nor a JPEG image (its first bytes say so)' };
  const info = type === 'image/png' ? checkPng(b) : checkJpeg(b);
  if (typeof info === 'string') return { ok: false, reason: info };
  if (info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE)
    return {
      ok: false,
      reason: `is ${info.width} × ${info.height} pixels; at most ${MAX_IMAGE_SIDE} on each side`,
    };
  return { ok: true, type, ...info };
}

/**
 * The type and size of an image read when it was accepted, from its header alone (nothing is
 * decoded): undefined when the bytes are neither a PNG nor a JPEG with a readable size.
 */
export function imageSize(bytes: Uint8Array): ImageInfo | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = sniffImage(b);
  if (type === 'image/png') {
    if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { type, width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (type === 'image/jpeg') {
    const size = checkJpeg(b);
    return typeof size === 'string' ? undefined : { type, ...size };
  }
  return undefined;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
/** Adam7: x start, y start, x step, y step of each pass. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The scanlines' sizes (filter byte included), pass by pass for an interlaced image. */
function scanlines(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number[][] {
  const rowBytes = (w: number) => 1 + Math.ceil((w * bitsPerPixel) / 8);
  if (!interlaced) return [Array.from({ length: height }, () => rowBytes(width))];
  return ADAM7.map(([xs, ys, dx, dy]) => {
    const w = width > xs ? Math.ceil((width - xs) / dx) : 0;
    const h = height > ys ? Math.ceil((height - ys) / dy) : 0;
    return w && h ? Array.from({ length: h }, () => rowBytes(w)) : [];
  });
}

function checkPng(b: Buffer): { width: number; height: number } | string {
  let pos = 8;
  let header:
    | { width: number; height: number; depth: number; colour: number; interlaced: boolean }
    | undefined;
  let palette = false;
  let ended = false;
  const data: Buffer[] = [];
  while (pos < b.length && !ended) {
    if (pos + 12 > b.length) return 'is a damaged PNG (a chunk is cut short)';
    const length = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (pos + 12 + length > b.length) return `is a damaged PNG (its ${type} chunk is cut short)`;
    const body = b.subarray(pos + 8, pos + 8 + length);
    if (crc32(b.subarray(pos + 4, pos + 8 + length)) !== b.readUInt32BE(pos + 8 + length))
      return `is a damaged PNG (its ${type} chunk fails its checksum)`;
    if (!header && type !== 'IHDR') return 'is a damaged PNG (it does not start with its header)';
    if (type === 'IHDR') {
      if (header || length !== 13) return 'is a damaged PNG (a bad header)';
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8]!,
        colour: body[9]!,
        interlaced: body[12] === 1,
      };
      if (!DEPTHS[header.colour]?.includes(header.depth) || body[10] !== 0 || body[11] !== 0 || body[12]! > 1)
        return 'is a PNG of a kind that cannot be printed (its colour type, bit depth or method)';
      if (header.width === 0 || header.height === 0) return 'is an empty PNG';
    } else if (type === 'PLTE') {
      if (length === 0 || length % 3 !== 0 || length > 768) return 'is a damaged PNG (a bad palette)';
      palette = true;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      ended = true;
    }
    pos += 12 + length;
  }
  if (!header || !ended) return 'is a damaged PNG (it has no end)';
  if (!data.length) return 'is a PNG without image data';
  if (header.colour === 3 && !palette) return 'is a damaged PNG (a palette image without its palette)';
  if (header.width > MAX_IMAGE_SIDE || header.height > MAX_IMAGE_SIDE)
    return { width: header.width, height: header.height };
  const rows = scanlines(
    header.width,
    header.height,
    CHANNELS[header.colour]! * header.depth,
    header.interlaced,
  );
  const expected = rows.flat().reduce((s, n) => s + n, 0);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 });
  } catch {
    return 'is a damaged PNG (its image data does not decompress)';
  }
  if (pixels.length !== expected) return 'is a damaged PNG (its image data is the wrong size)';
  // Every scanline starts with its filter type, 0 to 4; the decoder throws on any other.
  let at = 0;
  for (const row of rows.flat()) {
    if (pixels[at]! > 4) return 'is a damaged PNG (a row has an unknown filter)';
    at += row;
  }
  return { width: header.width, height: header.height };
}

/** Baseline, extended and progressive frames: what PDF readers display. */
const JPEG_FRAMES = new Set([0xc0, 0xc1, 0xc2]);

function checkJpeg(b: Buffer): { width: number; height: number } | string {
  let pos = 2;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return 'is a damaged JPEG (a segment does not start where expected)';
    // Fill bytes: any number of 0xFF before the marker.
    while (b[pos + 1] === 0xff && pos + 2 < b.length) pos++;
    const marker = b[pos + 1]!;
    pos += 2;
    // Markers without a length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd9 || marker === 0xda) return 'is a JPEG without a frame header before its image data';
    if (pos + 2 > b.length) break;
    const length = b.readUInt16BE(pos);
    if (length < 2 || pos + length > b.length) return 'is a damaged JPEG (a segment is cut short)';
    if (JPEG_FRAMES.has(marker)) {
      if (length < 8) return 'is a damaged JPEG (a bad frame header)';
      const bits = b[pos + 2];
      const height = b.readUInt16BE(pos + 3);
      const width = b.readUInt16BE(pos + 5);
      const channels = b[pos + 7]!;
      if (bits !== 8) return 'is a JPEG of 12 bits a component; 8 are printed';
      if (!width || !height) return 'is a JPEG without its size in its frame header';
      if (![1, 3, 4].includes(channels)) return 'is a JPEG with an unusual number of colour components';
      return { width, height };
    }
    if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return 'is a lossless or arithmetic-coded JPEG, which PDF readers do not show';
    if (marker === 0xcc) return 'is an arithmetic-coded JPEG, which PDF readers do not show';
    pos += length;
  }
  return 'is a damaged JPEG (no frame header)';
}
