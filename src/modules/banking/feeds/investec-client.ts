// A client of Investec Programmable Banking's account information API (Private Banking), as
// published: OAuth 2 client credentials (HTTP Basic client id:secret, header x-api-key, form
// grant_type=client_credentials) at /identity/v2/oauth2/token, then Bearer calls to
// /za/pb/v1/accounts, .../{id}/balance and .../{id}/transactions?fromDate&toDate&page, each
// answered as { data, links, meta: { totalPages } }.
//
// The token is cached until shortly before it expires (per base address and keys, across
// syncs) and fetched afresh once when a call answers 401 (expired early, or revoked: a second
// 401 is the keys). A 429 is waited out (Retry-After, up to RETRY_AFTER_CAP_MS) and retried a
// few times; 5xx, timeouts and network errors fail the call: the sync's backoff retries it.
import { createHash } from 'node:crypto';
import { fetch } from 'undici';

/** Each call's time allowed (connect, send, answer). */
export const CALL_TIMEOUT_MS = 15_000;
/** Longest Retry-After waited in the call; longer, the call fails as rate-limited. */
export const RETRY_AFTER_CAP_MS = 30_000;
/** 429s waited out per call before giving up. */
export const RATE_LIMIT_RETRIES = 3;
/** Pages read at most in one sync (a runaway totalPages must not hold the account's lock). */
export const MAX_PAGES = 500;

export interface InvestecKeys {
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

export interface InvestecAccount {
  accountId: string;
  accountNumber: string;
  accountName: string;
  referenceName: string;
  productName: string;
}

export interface InvestecBalance {
  accountId: string;
  currentBalance: number;
  availableBalance: number;
  currency: string;
}

export interface InvestecTransaction {
  accountId: string;
  type: 'DEBIT' | 'CREDIT';
  transactionType: string | null;
  status: 'POSTED' | 'PENDING';
  description: string;
  cardNumber: string | null;
  postedOrder: number | null;
  postingDate: string | null;
  valueDate: string | null;
  actionDate: string | null;
  transactionDate: string | null;
  amount: number;
  runningBalance: number | null;
  uuid?: string | null;
}

export type InvestecErrorKind = 'unauthorized' | 'rate_limited' | 'server' | 'network' | 'bad_answer';

/** A call that failed, and why, in words a bookkeeper can act on. */
export class InvestecError extends Error {
  readonly kind: InvestecErrorKind;
  readonly status: number | null;
  /** For rate_limited: how long the bank asked to wait, in ms. */
  readonly retryAfterMs: number | null;
  constructor(
    kind: InvestecErrorKind,
    message: string,
    status: number | null = null,
    retryAfterMs: number | null = null,
  ) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

interface CachedToken {
  token: string;
  /** Date.now() after which a fresh one is fetched. */
  renewAt: number;
}

// Tokens by base address and keys (hashed: the cache holds no key in clear).
const tokenCache = new Map<string, CachedToken>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMs(header: string | null): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - Date.now());
}

export class InvestecClient {
  private readonly base: string;
  private readonly keys: InvestecKeys;
  private readonly cacheKey: string;
  /** Calls made (token fetches included): the fake bank's tests count them. */
  calls = 0;

  constructor(baseUrl: string, keys: InvestecKeys) {
    this.base = baseUrl.replace(/\/$/, '');
    this.keys = keys;
    this.cacheKey = createHash('sha256')
      .update(`${this.base}\n${keys.clientId}\n${keys.clientSecret}\n${keys.apiKey}`)
      .digest('hex');
  }

  private async send(path: string, init: { method: string; headers: Record<string, string>; body?: string }) {
    this.calls++;
    try {
      return await fetch(`${this.base}${path}`, { ...init, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    } catch (err) {
      const timeout = (err as Error).name === 'TimeoutError';
      throw new InvestecError(
        'network',
        timeout
          ? `The bank did not answer within ${CALL_TIMEOUT_MS / 1000} s`
          : `The bank could not be reached (${(err as Error).message})`,
      );
    }
  }

  private async token(fresh: boolean): Promise<string> {
    const cached = tokenCache.get(this.cacheKey);
    if (!fresh && cached && cached.renewAt > Date.now()) return cached.token;
    tokenCache.delete(this.cacheKey);
    const basic = Buffer.from(`${this.keys.clientId}:${this.keys.clientSecret}`).toString('base64');
    const res = await this.send('/identity/v2/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'x-api-key': this.keys.apiKey,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
    });
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      throw new InvestecError(
        'unauthorized',
        'The bank refused the keys (client id, secret or API key wrong, or revoked): replace them',
        res.status,
      );
    }
    if (res.status === 429)
      throw new InvestecError(
        'rate_limited',
        'The bank is limiting requests',
        429,
        retryAfterMs(res.headers.get('retry-after')),
      );
    if (!res.ok) {
      await res.body?.cancel();
      throw new InvestecError('server', `The bank's sign-in answered ${res.status}`, res.status);
    }
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string')
      throw new InvestecError('bad_answer', "The bank's sign-in answered no access token");
    const lifeMs = Math.max(0, Number(body.expires_in ?? 0) * 1000);
    // Renew a little before the end (a tenth of the life, at most a minute): a call made at
    // the last moment must not arrive with a token already dead.
    tokenCache.set(this.cacheKey, {
      token: body.access_token,
      renewAt: Date.now() + lifeMs - Math.min(60_000, lifeMs / 10),
    });
    return body.access_token;
  }

  /** One GET of the API, answered as its JSON body; 401 once → a fresh token; 429 waited out. */
  private async get<T>(path: string): Promise<T> {
    let refreshed = false;
    let limited = 0;
    for (;;) {
      const token = await this.token(false);
      const res = await this.send(path, {
        method: 'GET',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      if (res.status === 401 && !refreshed) {
        await res.body?.cancel();
        refreshed = true;
        tokenCache.delete(this.cacheKey);
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel();
        tokenCache.delete(this.cacheKey);
        throw new InvestecError(
          'unauthorized',
          'The bank refused the keys (revoked?): replace them',
          res.status,
        );
      }
      if (res.status === 429) {
        await res.body?.cancel();
        const wait = retryAfterMs(res.headers.get('retry-after'));
        if (limited >= RATE_LIMIT_RETRIES || wait > RETRY_AFTER_CAP_MS)
          throw new InvestecError('rate_limited', 'The bank is limiting requests (429)', 429, wait);
        limited++;
        await sleep(wait);
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new InvestecError(
          'server',
          `The bank answered ${res.status} to ${path.split('?')[0]}`,
          res.status,
        );
      }
      try {
        return (await res.json()) as T;
      } catch {
        throw new InvestecError('bad_answer', `The bank's answer to ${path.split('?')[0]} is not JSON`);
      }
    }
  }

  async accounts(): Promise<InvestecAccount[]> {
    const body = await this.get<{ data?: { accounts?: InvestecAccount[] } }>('/za/pb/v1/accounts');
    if (!Array.isArray(body.data?.accounts))
      throw new InvestecError('bad_answer', 'The bank answered no accounts');
    return body.data.accounts;
  }

  async balance(accountId: string): Promise<InvestecBalance> {
    const body = await this.get<{ data?: InvestecBalance }>(
      `/za/pb/v1/accounts/${encodeURIComponent(accountId)}/balance`,
    );
    if (typeof body.data?.currentBalance !== 'number')
      throw new InvestecError('bad_answer', 'The bank answered no balance');
    return body.data;
  }

  /** Every transaction from fromDate to toDate (YYYY-MM-DD), all pages. */
  async transactions(accountId: string, fromDate: string, toDate: string): Promise<InvestecTransaction[]> {
    const out: InvestecTransaction[] = [];
    let totalPages = 1;
    for (let page = 1; page <= totalPages; page++) {
      const q = new URLSearchParams({ fromDate, toDate, page: String(page) });
      const body = await this.get<{
        data?: { transactions?: InvestecTransaction[] };
        meta?: { totalPages?: number };
      }>(`/za/pb/v1/accounts/${encodeURIComponent(accountId)}/transactions?${q}`);
      if (!Array.isArray(body.data?.transactions))
        throw new InvestecError('bad_answer', 'The bank answered no transactions list');
      out.push(...body.data.transactions);
      totalPages = Math.min(MAX_PAGES, Math.max(1, Number(body.meta?.totalPages ?? 1) || 1));
    }
    return out;
  }
}

/** Forgets every cached token (tests that expire tokens on the fake bank). */
export function forgetInvestecTokens(): void {
  tokenCache.clear();
}
