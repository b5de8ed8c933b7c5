// Test helpers for OAuth: register an app, drive the sign-in page through inject (reading
// its form's hidden fields back, as a browser would submit them), and call /oauth/token.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { as } from '../../../test/support/app.ts';

export const REDIRECT = 'https://app.example.com/oauth/callback';

export interface RegisteredApp {
  id: string;
  clientId: string;
  clientSecret: string;
}

export async function registerApp(
  app: FastifyInstance,
  token: string,
  redirectUris: string[] = [REDIRECT],
  name = 'Stock Sync',
): Promise<RegisteredApp> {
  const res = await as(
    app,
    token,
  )({ method: 'POST', url: '/api/oauth/apps', payload: { name, redirectUris } });
  assert.equal(res.statusCode, 201, res.body);
  const b = res.json();
  return { id: b.id, clientId: b.clientId, clientSecret: b.clientSecret };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeQuery(
  clientId: string,
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const q: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'companies:read invoices:write contacts:read',
    state: 'st-123',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

export function getPage(app: FastifyInstance, query: Record<string, string>) {
  return app.inject({ method: 'GET', url: `/oauth/authorize?${new URLSearchParams(query)}` });
}

/** The fields a browser would submit from the page: hidden inputs and ticked checkboxes. */
export function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  const fromHtml = (s: string) =>
    s
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[fromHtml(m[1]!)] = fromHtml(m[2]!);
  }
  for (const m of html.matchAll(/<input type="checkbox" id="[^"]+" name="([^"]+)" value="on"( checked)?>/g)) {
    if (m[2]) out[fromHtml(m[1]!)] = 'on';
  }
  return out;
}

export function postForm(app: FastifyInstance, fields: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The redirect's query parameters; asserts a 303 to the registered address. */
export function redirected(res: LightMyRequestResponse, to = REDIRECT): URLSearchParams {
  assert.equal(res.statusCode, 303, `expected a redirect, got ${res.statusCode}: ${res.body.slice(0, 400)}`);
  const location = new URL(String(res.headers.location));
  assert.equal(`${location.origin}${location.pathname}`, to);
  return location.searchParams;
}

/** Signs in on the page (opened with `query`), unticking `untick`; answers the redirect's parameters. */
export async function connect(
  app: FastifyInstance,
  query: Record<string, string>,
  person: { email: string; password: string },
  untick: string[] = [],
): Promise<URLSearchParams> {
  const page = await getPage(app, query);
  assert.equal(page.statusCode, 200, page.body);
  const fields = formFields(page.body);
  for (const s of untick) delete fields[`grant.${s}`];
  const res = await postForm(app, {
    ...fields,
    email: person.email,
    password: person.password,
    action: 'allow',
  });
  return redirected(res, query.redirect_uri);
}

export function tokenCall(
  app: FastifyInstance,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Asserts an RFC 6749 error answer (application/json, error and error_description). */
export function assertOAuthError(res: LightMyRequestResponse, status: number, error: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(body.error, error, res.body);
  assert.equal(typeof body.error_description, 'string');
  assert.equal(res.headers['cache-control'], 'no-store');
  return body;
}
