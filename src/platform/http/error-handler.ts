// One place that turns every failure into the spec's error bodies. A 500 never carries a
// stack trace, SQL or an internal message.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, PermissionDenied, problem } from './problem.ts';

interface ValidationIssue {
  instancePath?: string;
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

function validationDetail(error: FastifyError): { field: string; detail: string } {
  const issue = (error.validation?.[0] ?? {}) as ValidationIssue;
  const field = fieldOf(issue, error.validationContext);
  let message = issue.message ?? 'is invalid';
  if (issue.keyword === 'required') message = 'is required';
  if (issue.keyword === 'additionalProperties') message = 'is not an accepted field';
  if (issue.keyword === 'format') message = `must be a valid ${String(issue.params?.format)}`;
  if (issue.keyword === 'enum' || issue.keyword === 'const' || issue.keyword === 'anyOf') {
    const allowed = issue.params?.allowedValues;
    message = Array.isArray(allowed) ? `must be one of ${allowed.join(', ')}` : 'is not an accepted value';
  }
  return { field, detail: `${field}: ${message}` };
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

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const instance = request.url.split('?')[0] ?? request.url;
  if (error instanceof PermissionDenied) {
    return reply.code(403).type('application/json').send({
      error: 'Forbidden',
      resource: error.resource,
      action: error.action,
    });
  }
  if (error instanceof HttpError) {
    for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
    return reply
      .code(error.status)
      .type('application/json')
      .send(problem(error.status, error.message, instance, error.extensions));
  }
  const fe = error as FastifyError & { code?: string };
  if (fe.validation) {
    const { field, detail } = validationDetail(fe);
    return reply
      .code(400)
      .type('application/json')
      .send(problem(400, detail, instance, { field }));
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return reply
      .code(413)
      .type('application/json')
      .send(problem(413, 'The request body is too large', instance));
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (fe instanceof SyntaxError && fe.statusCode === 400)) {
    return reply
      .code(400)
      .type('application/json')
      .send(problem(400, 'body: the request body is not valid JSON', instance, { field: 'body' }));
  }
  if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return reply
      .code(400)
      .type('application/json')
      .send(problem(400, 'body: a JSON body is required', instance, { field: 'body' }));
  }
  const pg = fe.code ? PG_CLIENT_ERRORS[fe.code] : undefined;
  if (pg) {
    request.log.warn(
      { pgCode: fe.code, constraint: (fe as { constraint?: string }).constraint },
      'database refused',
    );
    return reply
      .code(pg[0])
      .type('application/json')
      .send(problem(pg[0], pg[1], instance));
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return reply
      .code(fe.statusCode)
      .type('application/json')
      .send(problem(fe.statusCode, fe.message, instance));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(500)
    .type('application/json')
    .send(problem(500, 'An unexpected error occurred. It has been logged.', instance));
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return reply
      .code(404)
      .type('application/json')
      .send(problem(404, `No route for ${request.method} ${path}`, path));
  });
}
