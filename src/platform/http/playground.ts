// The interactive console at /developers/playground/: the Scalar API reference over our own
// OpenAPI document, plus a small sign-in page. Everything it loads is served from here: the
// Scalar bundle ships inside the npm package, fonts are the system's, and a Content Security
// Policy tells the browser to refuse anything from another origin.
//
// Signing in: the sign-in page hashes the password (SubtleCrypto SHA-256, as the API wants),
// calls POST /auth/login, then hands the access token to Scalar through Scalar's own persisted
// authentication (localStorage, read because persistAuth is on), so the Authentication panel
// shows it and "try it" sends it. The chosen company is kept beside it; customFetch below adds
// it as X-Company-Id to calls that do not set one.
//
// These are pages and assets, not API operations: they are plain Fastify routes under
// /developers/, outside the route catalogue and the OpenAPI document.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PLAYGROUND_PATH } from './openapi.ts';

export { PLAYGROUND_PATH };

/** Paths under this prefix are console pages and assets, never API operations. */
export const DEVELOPER_PAGES_PREFIX = '/developers/';

/** Scalar keys its persisted authentication by the document slug; fixed so the sign-in page knows it. */
export const PLAYGROUND_DOCUMENT_SLUG = 'business-platform-v1';

/** localStorage key of the company the signed-in user chose (sent as X-Company-Id). */
export const PLAYGROUND_COMPANY_KEY = 'bp-playground-company-id';

// Same origin only. Scalar's page starts itself with an inline script and injects inline styles,
// hence 'unsafe-inline' for those two; nothing may be fetched, framed or posted elsewhere.
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The one browser global customFetch uses that Node's types do not declare. */
interface BrowserGlobals {
  localStorage: { getItem(key: string): string | null };
}

function secureHeaders(reply: FastifyReply) {
  reply.header('content-security-policy', CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
}

const ASSETS = join(import.meta.dirname, 'playground');

function asset(name: string): string {
  return readFileSync(join(ASSETS, name), 'utf8')
    .replaceAll('__PLAYGROUND_PATH__', PLAYGROUND_PATH)
    .replaceAll('__DOCUMENT_SLUG__', PLAYGROUND_DOCUMENT_SLUG)
    .replaceAll('__COMPANY_KEY__', PLAYGROUND_COMPANY_KEY);
}

export async function registerPlayground(app: FastifyInstance, openApiUrl: string) {
  const signInHtml = asset('sign-in.html');
  const signInJs = asset('sign-in.js');

  await app.register(scalar, {
    routePrefix: PLAYGROUND_PATH,
    logLevel: 'warn',
    hooks: {
      onRequest: async (_request, reply) => {
        secureHeaders(reply);
      },
    },
    configuration: {
      url: openApiUrl,
      slug: PLAYGROUND_DOCUMENT_SLUG,
      pageTitle: 'Business Platform API v1 · Playground',
      // Local assets only: no web fonts from Scalar's CDN, no telemetry, no links out to
      // Scalar's hosted client, no AI agent or MCP panels that call Scalar's services.
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
      documentDownloadType: 'json',
      // Calls go to the server that served the page, whatever PUBLIC_BASE_URL says.
      servers: [{ url: '/', description: 'This server' }],
      authentication: { preferredSecurityScheme: 'bearerAuth' },
      persistAuth: true,
      // Serialised into the page as source (so it may use only browser globals): adds the
      // company chosen at sign-in to calls that do not carry an X-Company-Id of their own.
      customFetch: (input: string | URL | Request, init?: RequestInit) => {
        const request = new Request(input, init);
        const { localStorage } = globalThis as unknown as BrowserGlobals;
        const company = localStorage.getItem('bp-playground-company-id');
        if (company && !request.headers.get('x-company-id')) request.headers.set('X-Company-Id', company);
        return fetch(request);
      },
    },
  });

  app.get(`${PLAYGROUND_PATH}/sign-in`, { logLevel: 'warn' }, async (_request, reply) => {
    secureHeaders(reply);
    return reply.type('text/html; charset=utf-8').send(signInHtml);
  });
  app.get(`${PLAYGROUND_PATH}/sign-in.js`, { logLevel: 'warn' }, async (_request, reply) => {
    secureHeaders(reply);
    return reply.type('application/javascript; charset=utf-8').send(signInJs);
  });
}
