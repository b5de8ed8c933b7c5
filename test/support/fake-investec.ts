// A local fake of Investec Programmable Banking (Private Banking account information) on a
// real loopback port, speaking the published protocol: OAuth 2 client credentials (HTTP Basic
// client id:secret, header x-api-key, form grant_type=client_credentials) at
// /identity/v2/oauth2/token; accounts, balance and paged transactions under /za/pb/v1, each
// answered in Investec's envelope { data, links, meta: { totalPages } }. Tests steer it: add
// transactions (PENDING, later POSTED with another amount), revoke the keys (401), rate-limit
// (429 with Retry-After), expire tokens, fail with 500.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAccount {
  accountId: string;
  accountNumber: string;
  accountName: string;
  referenceName: string;
  productName: string;
  currentBalance: number;
  availableBalance: number;
  currency: string;
}

/** A transaction as Investec answers it: amount unsigned, direction in `type`. */
export interface FakeTransaction {
  accountId: string;
  type: 'DEBIT' | 'CREDIT';
  transactionType: string | null;
  status: 'POSTED' | 'PENDING';
  description: string;
  cardNumber: string;
  postedOrder: number;
  postingDate: string | null;
  valueDate: string | null;
  actionDate: string;
  transactionDate: string;
  amount: number;
  runningBalance: number;
  uuid: string;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
}

export interface FakeInvestec {
  url: string;
  credentials: { clientId: string; clientSecret: string; apiKey: string };
  accounts: FakeAccount[];
  requests: FakeRequest[];
  /** Transactions a page holds (Investec's are large; tests make them small to page). */
  pageSize: number;
  /** Seconds a token lives (`expires_in`); Investec's is about 1799. */
  expiresIn: number;
  addTransaction(t: Partial<FakeTransaction> & { amount: number; transactionDate: string }): FakeTransaction;
  /** The pending line posts (the bank's pending row goes, a posted one with its own uuid comes). */
  post(uuid: string, changes: { amount?: number; postingDate: string }): FakeTransaction;
  /** The pending line disappears (an authorisation released). */
  drop(uuid: string): void;
  /** The keys stop working: the token endpoint and every issued token answer 401. */
  revoke(): void;
  /** New keys (after revoke): answers them. */
  rotate(): FakeInvestec['credentials'];
  /** Every issued token stops working now (as if expired). */
  expireTokens(): void;
  /** The token is expired when this transactions page is asked for (once). */
  expireTokensAtPage(page: number): void;
  /** The next n API calls (not the token endpoint) answer 429 with Retry-After. */
  rateLimit(n: number, retryAfterSeconds: number): void;
  /** The next n calls answer 500. */
  fail(n: number): void;
  tokenRequests(): number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeInvestec(): Promise<FakeInvestec> {
  // Keys of this bank's own: feeds of other tests (pointed at an earlier fake) are refused here.
  const own = randomUUID().slice(0, 8);
  let credentials = { clientId: `client-${own}`, clientSecret: `secret-${own}`, apiKey: `api-key-${own}` };
  let revoked = false;
  const tokens = new Map<string, number>();
  let transactions: FakeTransaction[] = [];
  let rateLimited = { n: 0, retryAfter: 1 };
  let failing = 0;
  let expireAtPage: number | undefined;
  const requests: FakeRequest[] = [];

  const fake: FakeInvestec = {
    url: '',
    credentials,
    accounts: [
      {
        accountId: '3353431574710166878182963',
        accountNumber: '10012345678',
        accountName: 'Mr J Dlamini',
        referenceName: 'Dlamini Trading',
        productName: 'Private Bank Account',
        currentBalance: 0,
        availableBalance: 0,
        currency: 'ZAR',
      },
      {
        accountId: '3353431574710166878182964',
        accountNumber: '10087654321',
        accountName: 'Mr J Dlamini',
        referenceName: 'Savings',
        productName: 'PrimeSaver',
        currentBalance: 5000,
        availableBalance: 5000,
        currency: 'ZAR',
      },
    ],
    requests,
    pageSize: 100,
    expiresIn: 1799,
    addTransaction(t) {
      const pending = t.status === 'PENDING';
      const row: FakeTransaction = {
        accountId: fake.accounts[0]!.accountId,
        type: 'DEBIT',
        transactionType: 'CardPurchases',
        status: 'POSTED',
        description: 'CARD PURCHASE',
        cardNumber: '402167xxxxxx9876',
        postedOrder: transactions.length + 1,
        postingDate: pending ? null : t.transactionDate,
        valueDate: pending ? null : t.transactionDate,
        actionDate: t.transactionDate,
        runningBalance: 0,
        uuid: randomUUID().replaceAll('-', '').slice(0, 24),
        ...t,
      };
      transactions.push(row);
      return row;
    },
    post(uuid, changes) {
      const p = transactions.find((t) => t.uuid === uuid && t.status === 'PENDING');
      if (!p) throw new Error(`no pending transaction ${uuid}`);
      transactions = transactions.filter((t) => t !== p);
      return fake.addTransaction({
        ...p,
        status: 'POSTED',
        uuid: randomUUID().replaceAll('-', '').slice(0, 24),
        amount: changes.amount ?? p.amount,
        postingDate: changes.postingDate,
        valueDate: changes.postingDate,
      });
    },
    drop(uuid) {
      transactions = transactions.filter((t) => t.uuid !== uuid);
    },
    revoke() {
      revoked = true;
    },
    rotate() {
      revoked = false;
      tokens.clear();
      const fresh = randomUUID().slice(0, 8);
      credentials = {
        clientId: `client-${fresh}`,
        clientSecret: `secret-${fresh}`,
        apiKey: `api-key-${fresh}`,
      };
      fake.credentials = credentials;
      return credentials;
    },
    expireTokens() {
      tokens.clear();
    },
    expireTokensAtPage(page) {
      expireAtPage = page;
    },
    rateLimit(n, retryAfterSeconds) {
      rateLimited = { n, retryAfter: retryAfterSeconds };
    },
    fail(n) {
      failing = n;
    },
    tokenRequests: () => requests.filter((r) => r.path === '/identity/v2/oauth2/token').length,
    close: async () => {},
  };

  function token(req: IncomingMessage, body: string): [number, unknown] {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials') return [400, { error: 'unsupported_grant_type' }];
    if (
      revoked ||
      id !== credentials.clientId ||
      secret !== credentials.clientSecret ||
      req.headers['x-api-key'] !== credentials.apiKey
    )
      return [401, { error: 'invalid_client' }];
    const access = randomUUID();
    tokens.set(access, Date.now() + fake.expiresIn * 1000);
    return [
      200,
      { access_token: access, token_type: 'Bearer', expires_in: fake.expiresIn, scope: 'accounts' },
    ];
  }

  function api(req: IncomingMessage, url: URL): [number, unknown, Record<string, string>?] {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const page = Number(url.searchParams.get('page') ?? '1');
    if (expireAtPage !== undefined && url.pathname.endsWith('/transactions') && page === expireAtPage) {
      expireAtPage = undefined;
      tokens.clear();
    }
    const expires = tokens.get(bearer);
    if (revoked || expires === undefined || expires <= Date.now()) return [401, { message: 'Unauthorized' }];
    if (rateLimited.n > 0) {
      rateLimited.n--;
      return [429, { message: 'Too Many Requests' }, { 'retry-after': String(rateLimited.retryAfter) }];
    }
    if (failing > 0) {
      failing--;
      return [500, { message: 'Internal Server Error' }];
    }
    const self = { self: url.href };
    if (url.pathname === '/za/pb/v1/accounts') {
      const accounts = fake.accounts.map(({ currentBalance, availableBalance, currency, ...a }) => ({
        ...a,
        kycCompliant: true,
        profileId: '10163180231316',
        profileName: 'Mr J Dlamini',
      }));
      return [200, { data: { accounts }, links: self, meta: { totalPages: 1 } }];
    }
    const m = /^\/za\/pb\/v1\/accounts\/([^/]+)\/(balance|transactions)$/.exec(url.pathname);
    const account = fake.accounts.find((a) => a.accountId === m?.[1]);
    if (!m || !account) return [404, { message: 'Not Found' }];
    if (m[2] === 'balance') {
      const { accountId, currentBalance, availableBalance, currency } = account;
      return [
        200,
        {
          data: {
            accountId,
            currentBalance,
            availableBalance,
            budgetBalance: 0,
            straightBalance: 0,
            currency,
          },
          links: self,
          meta: { totalPages: 1 },
        },
      ];
    }
    const from = url.searchParams.get('fromDate') ?? '0000-01-01';
    const to = url.searchParams.get('toDate') ?? '9999-12-31';
    // Newest first, as Investec answers; pending lines by their transaction date.
    const rows = transactions
      .filter((t) => t.accountId === account.accountId)
      .filter((t) => {
        const d = t.postingDate ?? t.transactionDate;
        return d >= from && d <= to;
      })
      .sort((a, b) => (b.postingDate ?? b.transactionDate).localeCompare(a.postingDate ?? a.transactionDate));
    const totalPages = Math.max(1, Math.ceil(rows.length / fake.pageSize));
    const slice = rows.slice((page - 1) * fake.pageSize, page * fake.pageSize);
    return [200, { data: { transactions: slice }, links: self, meta: { totalPages } }];
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fake.url);
      const body = Buffer.concat(chunks).toString('utf8');
      const [status, answer, headers] =
        req.method === 'POST' && url.pathname === '/identity/v2/oauth2/token'
          ? token(req, body)
          : req.method === 'GET'
            ? api(req, url)
            : [405, { message: 'Method Not Allowed' }];
      requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, status });
      send(res, status, answer, headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** The keys as our API's bodies name them (investec*), from the fake's credentials. */
export function keysBody(c: FakeInvestec['credentials']) {
  return { investecClientId: c.clientId, investecClientSecret: c.clientSecret, investecApiKey: c.apiKey };
}
