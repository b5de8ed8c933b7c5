// One place that turns every failure into the spec's error bodies. A 500 never carries a
// stack trace, SQL or an internal message.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODE_LIST, ERROR_CODES } from './error-codes.ts';
import { FIRST_DAY, LAST_DAY } from './input-rules.ts';
import { learnRoutes } from './method-not-allowed.ts';
import { badRequest, HttpError, PermissionDenied, PROBLEM_CONTENT_TYPE, problem } from './problem.ts';

/**
 * RFC 6750: a 401 names the scheme. A request that sent a token learns it was not accepted
 * (error="invalid_token"); one that sent none is only told what to send.
 */
function wwwAuthenticate(request: FastifyRequest): string {
  const sent = /^Bearer\s+\S+/i.test(request.headers.authorization ?? '');
  return sent ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers its 4xx as OAuth's error body (catalogue.ts, `oauthErrors`). */
    oauthErrors?: boolean;
  }
}

/**
 * RFC 6749 §5.2: a 4xx of OAuth's token endpoint is `{ error, error_description }` as
 * application/json, whatever refused it (validation, the body's size or media type), with the
 * problem's members beside them. The client's credentials are `invalid_client`; the rest of
 * the request, `invalid_request`. (429 and 5xx come from the platform, as problems.)
 */
function oauthShaped(request: FastifyRequest, status: number): boolean {
  return request.routeOptions?.config?.oauthErrors === true && status < 500 && status !== 429;
}

function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  detail: string,
  extensions: Record<string, unknown> = {},
) {
  if (status === 401 && !reply.hasHeader('www-authenticate')) {
    reply.header('www-authenticate', wwwAuthenticate(request));
  }
  const body = problem(status, detail, request.url.split('?')[0] ?? request.url, extensions);
  if (oauthShaped(request, status)) {
    const error = status === 401 ? 'invalid_client' : 'invalid_request';
    return reply
      .code(status)
      .type('application/json')
      .send({ error, error_description: detail, ...body });
  }
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(body);
}

interface ValidationIssue {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** "body/lines/0/quantity" style path → "lines[0].quantity"; a missing property names itself. */
export function fieldOf(issue: ValidationIssue, context: string | undefined): string {
  const parts = (issue.instancePath ?? '').split('/').filter(Boolean);
  const missing = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if (typeof missing === 'string') parts.push(missing);
  let field = '';
  for (const p of parts) field += /^\d+$/.test(p) ? `[${p}]` : field ? `.${p}` : p;
  if (!field) return context === 'body' ? 'body' : (context ?? 'request');
  return field;
}

function messageOf(issue: ValidationIssue): string {
  if (issue.keyword === 'required') return 'is required';
  if (issue.keyword === 'additionalProperties') return 'is not an accepted field';
  if (issue.keyword === 'format') {
    const format = String(issue.params?.format);
    // A date is refused for its form or for its range (input-rules.ts): one message says both.
    if (format === 'date') return `must be a valid date (YYYY-MM-DD) from ${FIRST_DAY} to ${LAST_DAY}`;
    if (format === 'date-time')
      return `must be a valid date-time (RFC 3339) from ${FIRST_DAY} to ${LAST_DAY}`;
    return `must be a valid ${format}`;
  }
  if (issue.keyword === 'enum' || issue.keyword === 'const' || issue.keyword === 'anyOf') {
    const allowed = issue.params?.allowedValues;
    return Array.isArray(allowed) ? `must be one of ${allowed.join(', ')}` : 'is not an accepted value';
  }
  return issue.message ?? 'is invalid';
}

export interface FieldError {
  field: string;
  message: string;
}

/**
 * Every failing field, once each, in the order validation found them; `detail` and `field`
 * name the first (as before the list existed). An anyOf/oneOf failure also reports each
 * branch's own failure, which says nothing more to a caller: only the union's line is kept
 * (and a branch's control character, which does say more).
 */
export function validationErrors(error: FastifyError): FieldError[] {
  const issues = (error.validation ?? []) as ValidationIssue[];
  const unions = issues
    .filter((i) => i.keyword === 'anyOf' || i.keyword === 'oneOf')
    .map((i) => i.instancePath ?? '');
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const branch = /\/(anyOf|oneOf)\/\d+\//.test(issue.schemaPath ?? '');
    // A control character is the reason whatever the branch (input-rules.ts): it is kept.
    if (
      branch &&
      issue.keyword !== 'plainText' &&
      unions.some((at) => (issue.instancePath ?? '').startsWith(at))
    )
      continue;
    const field = fieldOf(issue, error.validationContext);
    const message = messageOf(issue);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message });
  }
  if (out.length === 0) out.push({ field: fieldOf({}, error.validationContext), message: 'is invalid' });
  return out;
}

// PostgreSQL error codes that mean the request, not the server, was at fault.
const PG_CLIENT_ERRORS: Record<string, [number, string]> = {
  '23505': [409, 'The record conflicts with an existing one'],
  '23503': [409, 'The record refers to, or is referred to by, another record'],
  '23514': [400, 'A value is outside what is allowed'],
  '22P02': [400, 'A value has the wrong form'],
  '22007': [400, 'A date or time has the wrong form'],
  '22008': [400, 'A date or time is out of range'],
  '22003': [400, 'A number is out of range'],
  '22001': [400, 'A value is too long'],
};

// Socket errors of a lost connection, and PostgreSQL's connection exceptions (class 08),
// shutdowns (57P01–57P03) and too many connections (53300).
const LOST_CONNECTION = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
// node-postgres says so in words when the socket closes or a connect times out.
const LOST_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed/i;

/** Whether the error means the database could not be reached, rather than a fault of ours. */
export function databaseUnavailable(error: { code?: unknown; message?: unknown }): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  if (LOST_CONNECTION.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
  return typeof error.message === 'string' && LOST_MESSAGE.test(error.message);
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PermissionDenied) {
    return reply.code(403).type('application/json').send({
      error: 'Forbidden',
      resource: error.resource,
      action: error.action,
    });
  }
  if (error instanceof HttpError) {
    for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
    return sendProblem(request, reply, error.status, error.message, error.extensions);
  }
  const fe = error as FastifyError & { code?: string };
  if (fe.validation) {
    const errors = validationErrors(fe);
    const first = errors[0]!;
    return sendProblem(request, reply, 400, `${first.field}: ${first.message}`, {
      code: 'VALIDATION_FAILED',
      field: first.field,
      errors,
    });
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return sendProblem(request, reply, 413, 'The request body is too large');
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (fe instanceof SyntaxError && fe.statusCode === 400)) {
    return sendProblem(request, reply, 400, 'body: the request body is not valid JSON', {
      code: 'MALFORMED_BODY',
      field: 'body',
    });
  }
  if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return sendProblem(request, reply, 400, 'body: a JSON body is required', {
      code: 'MALFORMED_BODY',
      field: 'body',
    });
  }
  const pg = fe.code ? PG_CLIENT_ERRORS[fe.code] : undefined;
  if (pg) {
    request.log.warn(
      { pgCode: fe.code, constraint: (fe as { constraint?: string }).constraint },
      'database refused',
    );
    return sendProblem(request, reply, pg[0], pg[1]);
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // A framework status outside the closed list is answered as the 400 it amounts to.
    const known = ERROR_CODE_LIST.some((c) => ERROR_CODES[c].status === fe.statusCode);
    return sendProblem(request, reply, known ? fe.statusCode : 400, fe.message);
  }
  if (databaseUnavailable(fe)) {
    // The database went away (restarted, unreachable): the request did not complete, a retry
    // may. The pool drops the broken connections and opens new ones when it is back.
    request.log.warn({ err: { message: fe.message, code: fe.code } }, 'database unavailable');
    reply.header('retry-after', '5');
    return sendProblem(request, reply, 503, 'The database is unavailable; retry shortly', {
      code: 'UNAVAILABLE',
    });
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(request, reply, 500, 'An unexpected error occurred. It has been logged.');
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals, before any route is found, answered
 * as problems like every other error: a `%` that starts no valid escape (400, naming the path)
 * and a path parameter longer than the router reads (414, `maxParamLength`, 100 characters).
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendError(badRequest('path', 'has a % that starts no valid escape'), request, reply);
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const detail = `A path parameter is longer than the ${MAX_PARAM_LENGTH} characters the service reads`;
    return sendError(new HttpError(414, detail, { code: 'URI_TOO_LONG' }), request, reply);
  }
  return sendError(error, request, reply);
}

/** The longest path parameter the router reads (Fastify's default, stated so the 414 can say it). */
export const MAX_PARAM_LENGTH = 100;

/** Installs the error handler and the answer to a request no route takes (before any route is added). */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  const methodsOf = learnRoutes(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = request.method === 'OPTIONS' ? [] : methodsOf(path);
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(
        request,
        reply,
        405,
        `${path} does not take ${request.method}; it takes ${allowed.join(', ')}`,
        {
          code: 'METHOD_NOT_ALLOWED',
        },
      );
    }
    return sendProblem(request, reply, 404, `No route for ${request.method} ${path}`);
  });
}
