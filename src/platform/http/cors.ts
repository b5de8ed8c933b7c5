// CORS: a browser app served from one of CORS_ORIGINS may call the API. Listed origins get the
// CORS headers on every answer and their preflight (OPTIONS) answered 204 with what they may
// send; any other origin gets no CORS header at all, so the browser keeps the answer from it.
// With no CORS_ORIGINS (the default) nothing is installed: no hook, no preflight route.
//
// Credentials are never allowed: the API authenticates with a bearer token the app sends
// itself, not with cookies, so no page can ride on a signed-in user's browser.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** What a browser app may send: the token, JSON, the company, and the concurrency headers. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Company-Id',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'X-Request-Id',
] as const;

/** What a browser app may read of an answer besides the CORS-safelisted headers. */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'WWW-Authenticate',
] as const;

export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** How long a browser may keep a preflight's answer (seconds): ten minutes. */
const PREFLIGHT_MAX_AGE = 600;

/**
 * Installs CORS for the configured origins. @fastify/cors answers a preflight in its onRequest
 * hook, before authentication (a browser sends no Authorization on a preflight), and adds one
 * route, `OPTIONS *`, hidden from the document (`schema.hide`): it is the preflight's, not an
 * operation of the API.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    // A function, so that an origin not listed gets no CORS header at all (a list would still
    // send the exposed and preflight headers to it) and its preflight falls through to a 404.
    origin: (origin, callback) =>
      callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: [...CORS_METHODS],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    credentials: false,
    maxAge: PREFLIGHT_MAX_AGE,
    hideOptionsRoute: true,
  });
}
