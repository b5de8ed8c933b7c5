// The Business Platform API's TypeScript client: openapi-fetch over the types generated from the
// service's OpenAPI document (schema.d.ts, `npm run client`). Calls are by path, typed end to
// end: `client.GET('/api/invoices/{id}', { params: { path: { id } } })`.
//
// What it adds to openapi-fetch: the company every company-scoped call acts on (X-Company-Id,
// client-wide, changeable), the bearer token from a provider, and one retry after a refresh
// when a call answers 401 (the access token expired).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { components, operations, paths } from './schema.d.ts';

/** Where the access token comes from, and how a new one is obtained. */
export interface TokenSource {
  /** The access token to send as `Authorization: Bearer`; undefined sends none. */
  getAccessToken(): string | undefined | Promise<string | undefined>;
  /** Obtains a new access token (getAccessToken answers it from then on). */
  refresh(): Promise<void>;
}

export interface PlatformClientOptions extends Partial<TokenSource> {
  /** The service's address, e.g. https://api.example.co.za (no trailing /api). */
  baseUrl: string;
  /** The company company-scoped calls act on (X-Company-Id); a call may still send its own. */
  companyId?: string;
  /** Another fetch (tests, proxies); globalThis.fetch by default. */
  fetch?: typeof globalThis.fetch;
}

/**
 * JSON answers only: a report's JSON body is typed as the report, not as the union with its CSV
 * and PDF forms (a call that asks for a file reads it with parseAs).
 */
type Json = `${string}/json`;

export type PlatformClient = Client<paths, Json> & {
  /** From now on, company-scoped calls act on this company (undefined: send no X-Company-Id). */
  setCompanyId(companyId: string | undefined): void;
  getCompanyId(): string | undefined;
};

/** The calls that issue tokens: they carry their own credentials and are never retried. */
const TOKEN_PATHS = new Set(['/auth/register', '/auth/login', '/auth/refresh', '/auth/token']);

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  let companyId = options.companyId;
  const { getAccessToken, refresh } = options;
  // The request (a copy, its body unread) and the token sent, for a retry after a 401.
  const sent = new Map<string, { copy: Request; token: string }>();
  // Calls that meet a 401 together wait on one refresh.
  let refreshing: Promise<void> | undefined;
  const refreshOnce = () => {
    refreshing ??= refresh!().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  const middleware: Middleware = {
    async onRequest({ request, schemaPath, id }) {
      if (companyId && !request.headers.has('x-company-id')) request.headers.set('x-company-id', companyId);
      if (!getAccessToken || TOKEN_PATHS.has(schemaPath) || request.headers.has('authorization')) return;
      const token = await getAccessToken();
      if (!token) return;
      request.headers.set('authorization', `Bearer ${token}`);
      if (refresh) sent.set(id, { copy: request.clone(), token });
      return request;
    },
    async onResponse({ response, id, options: merged }) {
      const first = sent.get(id);
      sent.delete(id);
      if (!first || response.status !== 401) return;
      // Another call may have refreshed since this one left: then its token is already new.
      let token = await getAccessToken!();
      if (token === first.token) {
        try {
          await refreshOnce();
        } catch {
          // The refresh itself was refused (e.g. the session was revoked): the 401 stands.
          return;
        }
        token = await getAccessToken!();
      }
      if (!token || token === first.token) return;
      await response.body?.cancel();
      first.copy.headers.set('authorization', `Bearer ${token}`);
      return merged.fetch(first.copy);
    },
    onError({ id }) {
      sent.delete(id);
    },
  };

  const client = createClient<paths, Json>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(middleware);
  return Object.assign(client, {
    setCompanyId(next: string | undefined) {
      companyId = next;
    },
    getCompanyId: () => companyId,
  });
}

/** A call that should have issued tokens did not: its status and the problem it answered. */
export class TokenRefused extends Error {
  readonly status: number;
  readonly problem: unknown;

  constructor(status: number, problem: unknown) {
    super(`The service refused to issue a token (${status})`);
    this.status = status;
    this.problem = problem;
  }
}

export interface UserTokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * A signed-in user's tokens (from POST /auth/login or /auth/register). refresh() sends the
 * refresh token to POST /auth/refresh and keeps the rotated pair; onTokens sees each new pair
 * (to store it: a refresh token is single use).
 */
export function userSession(
  baseUrl: string,
  tokens: UserTokens,
  options: { fetch?: typeof globalThis.fetch; onTokens?: (tokens: UserTokens) => void } = {},
): TokenSource & { tokens(): UserTokens } {
  let current: UserTokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  const auth = createClient<paths>({ baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  return {
    getAccessToken: () => current.accessToken,
    tokens: () => current,
    async refresh() {
      const { data, error, response } = await auth.POST('/auth/refresh', {
        body: { refreshToken: current.refreshToken },
      });
      if (!data) throw new TokenRefused(response.status, error);
      current = { accessToken: data.accessToken, refreshToken: data.refreshToken };
      options.onTokens?.(current);
    },
  };
}

/**
 * An API key: exchanged at POST /auth/token (the key as bearer) for an access token of one
 * hour, at the first call and again whenever the token is refused.
 */
export function apiKeySession(
  baseUrl: string,
  apiKey: string,
  options: { fetch?: typeof globalThis.fetch } = {},
): TokenSource {
  let accessToken: string | undefined;
  let exchanging: Promise<void> | undefined;
  const auth = createClient<paths>({ baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const exchange = () => {
    exchanging ??= (async () => {
      const { data, error, response } = await auth.POST('/auth/token', {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      if (!data) throw new TokenRefused(response.status, error);
      accessToken = data.accessToken;
    })().finally(() => {
      exchanging = undefined;
    });
    return exchanging;
  };
  return {
    async getAccessToken() {
      if (!accessToken) await exchange();
      return accessToken;
    },
    refresh: exchange,
  };
}
