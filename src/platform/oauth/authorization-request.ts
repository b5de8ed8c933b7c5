// Checks an authorization request (RFC 6749 4.1.1 with PKCE, RFC 7636). Who the app is and
// where to send the browser are checked first: when either is wrong nothing may be sent
// to the address given, so the page shows the error itself (4.1.2.1). Every later problem
// goes back to the app's address as `error` with the `state`.
import type { Kysely } from 'kysely';
import { SCOPES } from '../auth/scopes.ts';
import type { DB } from '../db/schema.ts';
import { findLiveApp } from './apps.service.ts';
import { PKCE_CHALLENGE } from './credentials.ts';

export interface AuthorizationRequest {
  clientId: string;
  appName: string;
  redirectUri: string;
  /** The scopes asked for, in the order of the live list. */
  scopes: string[];
  state?: string;
  codeChallenge?: string;
}

export type Checked =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** Shown on the page; nothing is sent to the redirect address. */
  | { kind: 'page-error'; message: string }
  /** Sent back to the app (RFC 6749 4.1.2.1 error codes). */
  | { kind: 'redirect-error'; redirectUri: string; state?: string; error: string; description: string };

export interface RequestFields {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

const ORDER = new Map(SCOPES.map((s, i) => [s.scope, i]));

export async function checkAuthorizationRequest(root: Kysely<DB>, q: RequestFields): Promise<Checked> {
  if (!q.client_id)
    return { kind: 'page-error', message: 'The link that brought you here has no client_id.' };
  const app = await findLiveApp(root, q.client_id);
  if (!app) {
    return {
      kind: 'page-error',
      message:
        'The app that sent you here is not registered, or has been deleted. Nothing was shared with it.',
    };
  }
  if (!q.redirect_uri || !app.redirect_uris.includes(q.redirect_uri)) {
    return {
      kind: 'page-error',
      message: `The return address given is not one that “${app.name}” registered, so you cannot be sent back to it. Nothing was shared.`,
    };
  }
  const back = (error: string, description: string): Checked => ({
    kind: 'redirect-error',
    redirectUri: q.redirect_uri as string,
    ...(q.state !== undefined ? { state: q.state } : {}),
    error,
    description,
  });
  if (q.response_type !== 'code') {
    return back('unsupported_response_type', 'response_type must be code');
  }
  const asked = [...new Set((q.scope ?? '').split(' ').filter(Boolean))];
  if (asked.length === 0) return back('invalid_scope', 'scope is required: space-separated scopes');
  const unknown = asked.find((s) => !ORDER.has(s));
  if (unknown) return back('invalid_scope', `"${unknown}" is not a scope; see GET /api-scopes`);
  if (q.code_challenge !== undefined || q.code_challenge_method !== undefined) {
    if (q.code_challenge_method !== 'S256') {
      return back('invalid_request', 'code_challenge_method must be S256');
    }
    if (!q.code_challenge || !PKCE_CHALLENGE.test(q.code_challenge)) {
      return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier');
    }
  }
  return {
    kind: 'ok',
    request: {
      clientId: q.client_id,
      appName: app.name,
      redirectUri: q.redirect_uri,
      scopes: asked.sort((a, b) => (ORDER.get(a) ?? 0) - (ORDER.get(b) ?? 0)),
      ...(q.state !== undefined ? { state: q.state } : {}),
      ...(q.code_challenge ? { codeChallenge: q.code_challenge } : {}),
    },
  };
}
