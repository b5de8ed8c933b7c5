// multipart/form-data bodies (a file uploaded with its fields), for the routes that declare
// `consumes: MULTIPART_CONTENT_TYPE`: @fastify/multipart is registered in a scope of their own,
// the parts are read into an object (text fields as strings, file parts as Buffers) before the
// route's body schema validates it, so a missing or wrong field is the usual 400 naming it. A
// file part is a body property of `format: binary` (fileProperty); it is validated as its file
// name, then handed to the handler as the Buffer. Any other media type is a 415; a file beyond
// the route's bodyLimit a 413.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { badRequest, HttpError } from './problem.ts';

export const MULTIPART_CONTENT_TYPE = 'multipart/form-data';

/** A file part as the handler gets it; written into an audit entry as its name and size only. */
export class UploadedFile {
  readonly bytes: Buffer;
  readonly filename: string;
  constructor(bytes: Buffer, filename: string) {
    this.bytes = bytes;
    this.filename = filename;
  }
  get size(): number {
    return this.bytes.length;
  }
  toJSON() {
    return { filename: this.filename, size: this.size };
  }
}

/** A file part of a multipart body: an UploadedFile to the handler, `format: binary` in the document. */
export function fileProperty(description: string) {
  return Type.Unsafe<UploadedFile>(Type.String({ format: 'binary', description }));
}

/** The body properties that are file parts (format binary). */
export function fileFieldsOf(body: TSchema | undefined): string[] {
  const props = (body as { properties?: Record<string, { format?: string }> } | undefined)?.properties ?? {};
  return Object.entries(props)
    .filter(([, p]) => p.format === 'binary')
    .map(([k]) => k);
}

const FILES = Symbol('multipart files');
type WithFiles = FastifyRequest & { [FILES]?: Map<string, UploadedFile> };

/** Registers @fastify/multipart in the scope (the file limit: the largest route's bodyLimit). */
export async function multipartScope(scope: FastifyInstance, largest: number): Promise<void> {
  await scope.register(multipart, {
    limits: { fileSize: largest, files: 4, fields: 50, fieldSize: 64 * 1024, parts: 60 },
    throwFileSizeLimit: true,
  });
}

const BOUNDARY = /;\s*boundary=("[^"]+"|[^;\s]+)/i;

/** A body that cannot be read as multipart: 400 MALFORMED_BODY naming the body. */
function malformed(detail: string): HttpError {
  return new HttpError(400, `body: ${detail}`, { code: 'MALFORMED_BODY', field: 'body' });
}

/**
 * The route's preValidation: reads the parts into request.body (each file as its name, kept
 * aside until validation is done). Not multipart at all: 415. Multipart without a boundary, or
 * parts the reader cannot make out (busboy's plain Errors, which were 500s: issue 35): 400.
 */
export function readParts(files: readonly string[], bodyLimit: number) {
  return async (request: FastifyRequest) => {
    if (!request.isMultipart())
      throw new HttpError(415, `The body must be ${MULTIPART_CONTENT_TYPE}`, {
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    if (!BOUNDARY.test(request.headers['content-type'] ?? ''))
      throw malformed(`${MULTIPART_CONTENT_TYPE} needs a boundary parameter in Content-Type`);
    try {
      return await readInto(request, files, bodyLimit);
    } catch (err) {
      // @fastify/multipart's own errors (413, 415...) and ours carry a status; busboy's do not.
      if (err instanceof HttpError || typeof (err as { statusCode?: unknown }).statusCode === 'number')
        throw err;
      throw malformed(`the multipart parts cannot be read (${(err as Error).message})`);
    }
  };
}

async function readInto(request: FastifyRequest, files: readonly string[], bodyLimit: number) {
  const body: Record<string, unknown> = {};
  const kept = new Map<string, UploadedFile>();
  for await (const part of request.parts({ limits: { fileSize: bodyLimit } })) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (!files.includes(part.fieldname))
        throw badRequest(part.fieldname, 'is not a file part of this body');
      if (kept.has(part.fieldname)) throw badRequest(part.fieldname, 'is given more than once');
      kept.set(part.fieldname, new UploadedFile(bytes, part.filename || part.fieldname));
      body[part.fieldname] = part.filename || part.fieldname;
    } else {
      if (part.fieldname in body) throw badRequest(part.fieldname, 'is given more than once');
      body[part.fieldname] = part.value;
    }
  }
  (request as WithFiles)[FILES] = kept;
  request.body = body;
}

/** The route's preHandler: a file property given as a text field is a 400; the files go in. */
export function attachFiles(files: readonly string[]) {
  return async (request: FastifyRequest) => {
    const kept = (request as WithFiles)[FILES] ?? new Map<string, UploadedFile>();
    const body = request.body as Record<string, unknown>;
    for (const name of files) {
      if (!(name in body)) continue;
      const file = kept.get(name);
      if (!file) throw badRequest(name, 'must be a file part (with a filename), not a text field');
      body[name] = file;
    }
  };
}

/**
 * A multipart body as a client sends it (tests, the bench): Buffers (or { filename, content })
 * become file parts, everything else text fields.
 */
export function encodeMultipart(
  fields: Record<string, unknown>,
  fileNames: readonly string[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----bp${crypto.randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const isFile = Buffer.isBuffer(value) || fileNames.includes(name);
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (isFile) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${name}"; filename="${name}.dat"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
      );
      chunks.push(Buffer.isBuffer(value) ? value : Buffer.from(String(value)));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `${MULTIPART_CONTENT_TYPE}; boundary=${boundary}` },
  };
}
