// Typed errors that handlers throw; the error handler renders each as RFC 7807 problem
// details (or, for a role denial, the spec's { error, resource, action } body). Every problem
// carries a `code` from the closed list (error-codes.ts): the thrower's, or its status's default.
import { defaultCode, type ErrorCode } from './error-codes.ts';

/** Problems go out with the RFC 7807 media type. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function titleFor(status: number): string {
  return TITLES[status] ?? 'Error';
}

/** A problem's members beyond the five: `code` is one of the closed list. */
export type ProblemExtensions = { code?: ErrorCode } & Record<string, unknown>;

export class HttpError extends Error {
  readonly status: number;
  readonly extensions: ProblemExtensions;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    detail: string,
    extensions: ProblemExtensions = {},
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = status;
    this.extensions = extensions;
    this.headers = headers;
  }
}

/** The role system's denial: rendered as { error, resource, action }, not as a problem. */
export class PermissionDenied extends Error {
  readonly resource: string;
  readonly action: string;
  constructor(resource: string, action: string) {
    super(`The role lacks ${resource}:${action}`);
    this.resource = resource;
    this.action = action;
  }
}

/** 400 naming the offending field: detail reads "<field>: <what is wrong>". */
export function badRequest(field: string | null, detail: string): HttpError {
  return new HttpError(400, field ? `${field}: ${detail}` : detail, field ? { field } : {});
}

export function unauthorized(detail = 'Authentication required', code?: ErrorCode): HttpError {
  return new HttpError(401, detail, code ? { code } : {});
}

export function forbidden(detail: string, code?: ErrorCode): HttpError {
  return new HttpError(403, detail, code ? { code } : {});
}

export function notFound(what = 'Resource'): HttpError {
  return new HttpError(404, `${what} not found`);
}

export function conflict(detail: string, extensions: ProblemExtensions = {}): HttpError {
  return new HttpError(409, detail, extensions);
}

export function unprocessable(detail: string, reasons: string[] = []): HttpError {
  return new HttpError(422, detail, reasons.length ? { reasons } : {});
}

export function unavailable(detail: string): HttpError {
  return new HttpError(503, detail);
}

export function problem(
  status: number,
  detail: string,
  instance: string,
  extensions: Record<string, unknown> = {},
): ProblemBody {
  return {
    type: 'about:blank',
    title: titleFor(status),
    status,
    detail,
    instance,
    code: defaultCode(status),
    ...extensions,
  };
}
