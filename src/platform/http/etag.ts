// Optimistic concurrency for single records (RFC 9110 §8.8.3, §13.1.1, §13.1.2).
//
// Every single-record GET answers a strong ETag: a hash of the JSON it sends, so it changes
// exactly when the representation changes, and nothing has to be stored to know it. A GET
// with If-None-Match naming it answers 304 with no body.
//
// A PATCH or DELETE on the path of such a GET, sent with If-Match, first computes the record's
// current ETag inside its own transaction by running that GET's handler, and answers 412
// PRECONDITION_FAILED (nothing written) when If-Match does not name it. Before that it takes a
// transaction-scoped advisory lock on the tenant and the record's path, so two If-Match
// writers of one record go one after the other: the second computes its ETag after the first
// committed and fails, instead of both matching the old version. Writers without If-Match take
// no lock and are not serialised by it (they never asked to be).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AnyRoute } from './catalogue.ts';
import { badRequest, HttpError } from './problem.ts';
import {
  type AroundHandler,
  filledPath,
  isSingleRecordGet,
  siblingGet,
  type UserRoute,
} from './record-routes.ts';

/** What the OpenAPI document declares for a route; see conditional(). */
export interface Conditional {
  /** The success answer carries an ETag header. */
  etag: boolean;
  /** The route takes If-None-Match and may answer 304 (a single-record GET). */
  ifNoneMatch: boolean;
  /** The route takes If-Match and may answer 412 PRECONDITION_FAILED (a PATCH or DELETE). */
  ifMatch: boolean;
}

/** A PATCH whose answer is the record as its GET shows it (the same schema): it carries the new ETag. */
function answersTheRecord(route: AnyRoute, get: UserRoute | undefined): boolean {
  return route.method === 'PATCH' && get !== undefined && route.response[200] === get.response[200];
}

/** The conditional-request headers a route takes and answers, for the OpenAPI document. */
export function conditional(route: AnyRoute, routes: readonly AnyRoute[]): Conditional {
  if (isSingleRecordGet(route)) return { etag: true, ifNoneMatch: true, ifMatch: false };
  const get = siblingGet(route, routes);
  return { etag: answersTheRecord(route, get), ifNoneMatch: false, ifMatch: get !== undefined };
}

/** A strong entity tag of a serialised representation: a quoted, truncated SHA-256. */
export function entityTag(serialised: string): string {
  return `"${createHash('sha256').update(serialised).digest('base64url').slice(0, 32)}"`;
}

interface Tag {
  weak: boolean;
  opaque: string;
}

const ENTITY_TAG = /^\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/;

/** `*`, or the entity tags of a comma-separated list; undefined when the header is malformed. */
function parseTags(header: string): '*' | Tag[] | undefined {
  if (header.trim() === '*') return '*';
  const tags: Tag[] = [];
  let rest = header;
  while (rest.trim() !== '') {
    // Empty list elements (", ,") are allowed by the list syntax (RFC 9110 §5.6.1).
    const empty = /^\s*,/.exec(rest);
    if (empty) {
      rest = rest.slice(empty[0].length);
      continue;
    }
    const m = ENTITY_TAG.exec(rest);
    if (!m) return undefined;
    tags.push({ weak: m[1] !== undefined, opaque: m[2]! });
    rest = rest.slice(m[0].length);
  }
  return tags.length ? tags : undefined;
}

function headerValue(raw: string | string[] | undefined): string | undefined {
  return Array.isArray(raw) ? raw.join(', ') : raw;
}

/** If-None-Match (weak comparison, §13.1.2): true when it names `etag` or is `*`. */
export function noneMatchHits(raw: string | string[] | undefined, etag: string): boolean {
  const header = headerValue(raw);
  if (header === undefined) return false;
  const tags = parseTags(header);
  if (tags === '*') return true;
  return (tags ?? []).some((t) => t.opaque === etag);
}

/** If-Match's entity tags, or `*`; a malformed header is a 400 naming it. */
function parseIfMatch(header: string): '*' | Tag[] {
  const tags = parseTags(header);
  if (tags === undefined) {
    throw badRequest('If-Match', 'must be * or a comma-separated list of entity tags, each in double quotes');
  }
  return tags;
}

/**
 * If-Match (strong comparison, §13.1.1): true when it names `etag` with a strong tag, or is
 * `*` (the record exists: the caller got this far).
 */
export function ifMatchHolds(header: string, etag: string): boolean {
  const tags = parseIfMatch(header);
  if (tags === '*') return true;
  return tags.some((t) => !t.weak && t.opaque === etag);
}

/**
 * A route's onSend hook: the ETag of the JSON answered with 200; on a GET, 304 with no body
 * when If-None-Match names it.
 */
export async function answerEntityTag(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const etag = entityTag(payload);
  reply.header('etag', etag);
  if (
    (request.method === 'GET' || request.method === 'HEAD') &&
    noneMatchHits(request.headers['if-none-match'], etag)
  ) {
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return null;
  }
  return payload;
}

/**
 * The If-Match check of a PATCH or DELETE whose path has a single-record GET: in the write's
 * transaction, before the handler. Without If-Match the write runs as it always did.
 *
 * The GET's handler runs with the write's params and no query (an item GET takes none; were
 * one to, the ETag compared is that of its plain form). A 404 it throws stays a 404. Its answer
 * is serialised by its own response schema, as a GET would send it, so the ETag is the very one
 * a GET answers.
 */
export function ifMatchGuard(route: AnyRoute, get: UserRoute): AroundHandler {
  return async (input, ctx, next) => {
    const header = headerValue(input.headers['if-match']);
    if (header === undefined) return next();
    parseIfMatch(header);
    const params = input.params as Record<string, unknown>;
    const record = filledPath(route.path, params).toLowerCase();
    await sql`select pg_advisory_xact_lock(hashtextextended(${`${ctx.tenantId} ${record}`}, 0))`.execute(
      ctx.db,
    );
    // The GET's handler must not change the write's status (some handlers set it).
    const status = ctx.reply.statusCode;
    const current = await get.handler({ params, query: {}, body: undefined, headers: input.headers }, ctx);
    ctx.reply.code(status);
    const etag = entityTag(
      ctx.reply.serializeInput(
        current as Record<string, unknown>,
        get.response[200] as unknown as Record<string, unknown>,
      ),
    );
    if (!ifMatchHolds(header, etag)) {
      throw new HttpError(
        412,
        `If-Match: the record has changed since that version; its current ETag is ${etag}. GET it again and retry`,
        { code: 'PRECONDITION_FAILED', field: 'If-Match' },
      );
    }
    return next();
  };
}
