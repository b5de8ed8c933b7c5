// OAuth 2 for multi-business apps, through the real app: registering an app, the sign-in
// page (scopes unticked, two-factor, refusals), the token endpoint (codes, PKCE, refresh),
// and the connection as a key of the person who connected.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type TOTP, URI } from 'otpauth';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { addMember } from '../auth/users.factories.ts';
import { withTenant } from '../db/tenant.ts';
import {
  assertOAuthError,
  authorizeQuery,
  connect,
  formFields,
  getPage,
  pkce,
  postForm,
  REDIRECT,
  type RegisteredApp,
  redirected,
  registerApp,
  tokenCall,
} from './oauth.factories.ts';

let t: TestApp;
let developer: Registered;
let app: RegisteredApp;
before(async () => {
  t = await startTestApp();
  developer = await register(t.app, { plan: 'business' });
  app = await registerApp(t.app, developer.token, [REDIRECT, 'http://127.0.0.1:8123/cb']);
});
after(() => t.close());

const person = (r: Registered) => ({ email: r.email, password: r.password });

/** The authorization_code form for a redirect's code, as `app` (or `client`) sends it. */
function codeForm(params: URLSearchParams, extra: Record<string, string> = {}, client: RegisteredApp = app) {
  return {
    grant_type: 'authorization_code',
    code: params.get('code')!,
    redirect_uri: REDIRECT,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...extra,
  };
}

/** The refresh_token form, as `app` sends it. */
function refreshForm(refreshToken: string) {
  return {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: app.clientId,
    client_secret: app.clientSecret,
  };
}

/** A code for `who` (owner of a business-plan tenant unless given) and the exchange answer. */
async function connected(who?: Registered, untick: string[] = [], extra: Record<string, string> = {}) {
  const business = who ?? (await register(t.app, { plan: 'business' }));
  const params = await connect(t.app, authorizeQuery(app.clientId, extra), person(business), untick);
  const res = await tokenCall(t.app, codeForm(params));
  assert.equal(res.statusCode, 200, res.body);
  return { business, tokens: res.json() };
}

describe('registering an app', () => {
  test('answers the client secret once; list and record never show it', async () => {
    const res = await as(
      t.app,
      developer.token,
    )({
      method: 'POST',
      url: '/api/oauth/apps',
      payload: { name: 'Payroll Bridge', redirectUris: ['https://bridge.example.com/cb'] },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.match(created.clientId, /^bpapp_[0-9a-f-]{36}\.[0-9a-f-]{36}$/);
    assert.match(created.clientSecret, /^bpcs_[\w-]{43}$/);
    assert.equal(created.secretLastFour, created.clientSecret.slice(-4));
    const list = await as(t.app, developer.token)({ method: 'GET', url: '/api/oauth/apps' });
    const one = await as(t.app, developer.token)({ method: 'GET', url: `/api/oauth/apps/${created.id}` });
    for (const r of [list, one]) {
      assert.equal(r.statusCode, 200);
      assert.ok(!r.body.includes(created.clientSecret), 'the secret is shown again');
    }
    assert.deepEqual(one.json().redirectUris, ['https://bridge.example.com/cb']);
  });

  test('redirect addresses must be https (http only on loopback) without a fragment: 400 naming the one', async () => {
    for (const [uri, why] of [
      ['http://app.example.com/cb', /https/],
      ['https://app.example.com/cb#x', /fragment/],
      ['not a url', /absolute/],
      ['https://user:pw@app.example.com/cb', /user name/],
    ] as const) {
      const res = await as(
        t.app,
        developer.token,
      )({
        method: 'POST',
        url: '/api/oauth/apps',
        payload: { name: 'Bad', redirectUris: [REDIRECT, uri] },
      });
      const body = assertProblem(res, 400, uri);
      assert.equal(body.field, 'redirectUris[1]');
      assert.match(String(body.detail), why);
    }
  });

  test('a plan without API access cannot register one', async () => {
    const free = await register(t.app, { plan: 'free' });
    const res = await as(
      t.app,
      free.token,
    )({
      method: 'POST',
      url: '/api/oauth/apps',
      payload: { name: 'X', redirectUris: [REDIRECT] },
    });
    assert.equal(assertProblem(res, 403).code, 'PLAN_HAS_NO_API_KEYS');
  });
});

describe('the sign-in page', () => {
  test('shows the app and every asked scope ticked, with no script or outside asset, never framed', async () => {
    const res = await getPage(t.app, authorizeQuery(app.clientId));
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.match(res.body, /Connect Stock Sync to your business/);
    const fields = formFields(res.body);
    for (const s of ['companies:read', 'invoices:write', 'contacts:read'])
      assert.equal(fields[`grant.${s}`], 'on', s);
    assert.doesNotMatch(res.body, /<script|src=|<link|https?:\/\/(?!app\.example\.com)/i);
  });

  test('an unknown app or an unregistered address is shown on the page and never redirected to', async () => {
    for (const query of [
      authorizeQuery('bpapp_00000000-0000-4000-8000-000000000000.00000000-0000-4000-8000-000000000000'),
      authorizeQuery(app.clientId, { redirect_uri: 'https://evil.example.net/cb' }),
      authorizeQuery(app.clientId, { redirect_uri: `${REDIRECT}/` }),
      authorizeQuery(app.clientId, { redirect_uri: undefined }),
    ]) {
      const res = await getPage(t.app, query);
      assert.equal(res.statusCode, 400, query.redirect_uri);
      assert.equal(res.headers.location, undefined);
      assert.match(res.body, /cannot be connected/);
    }
    // Posting the form with a changed address is refused the same way.
    const page = await getPage(t.app, authorizeQuery(app.clientId));
    const fields = { ...formFields(page.body), redirect_uri: 'https://evil.example.net/cb', action: 'allow' };
    const res = await postForm(t.app, fields);
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers.location, undefined);
  });

  test('other problems go back to the app as error with the state', async () => {
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'invoices:write nonsense:read' }, 'invalid_scope'],
      [{ scope: undefined }, 'invalid_scope'],
      [{ code_challenge: pkce().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: pkce().challenge, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    ];
    for (const [overrides, error] of cases) {
      const params = redirected(await getPage(t.app, authorizeQuery(app.clientId, overrides)));
      assert.equal(params.get('error'), error, JSON.stringify(overrides));
      assert.equal(params.get('state'), 'st-123');
      assert.equal(params.get('code'), null);
    }
  });

  test('Cancel answers access_denied with the state', async () => {
    const page = await getPage(t.app, authorizeQuery(app.clientId));
    const params = redirected(await postForm(t.app, { ...formFields(page.body), action: 'deny' }));
    assert.equal(params.get('error'), 'access_denied');
    assert.equal(params.get('state'), 'st-123');
  });

  test('a wrong password shows the page again, with no code; nothing ticked is refused', async () => {
    const b = await register(t.app, { plan: 'business' });
    const page = await getPage(t.app, authorizeQuery(app.clientId));
    const fields = formFields(page.body);
    const wrong = await postForm(t.app, { ...fields, email: b.email, password: 'not it', action: 'allow' });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.headers.location, undefined);
    assert.match(wrong.body, /Invalid email or password/);
    const none = Object.fromEntries(Object.entries(fields).filter(([k]) => !k.startsWith('grant.')));
    const empty = await postForm(t.app, { ...none, email: b.email, password: b.password, action: 'allow' });
    assert.equal(empty.statusCode, 400);
    assert.match(empty.body, /at least one permission/);
  });

  test('someone who may not manage API keys, or on a plan without API access, cannot connect', async () => {
    const b = await register(t.app, { plan: 'business' });
    const viewer = await addMember(t, b, 'viewer');
    const page = await getPage(t.app, authorizeQuery(app.clientId));
    const fields = formFields(page.body);
    const asViewer = await postForm(t.app, {
      ...fields,
      email: viewer.email,
      password: `pw ${viewer.email}`,
      action: 'allow',
    });
    assert.equal(asViewer.statusCode, 403, asViewer.body.slice(0, 300));
    assert.match(asViewer.body, /Your role cannot connect apps/);
    const free = await register(t.app, { plan: 'starter' });
    const onFree = await postForm(t.app, { ...fields, ...person(free), action: 'allow' });
    assert.equal(onFree.statusCode, 403);
    assert.match(onFree.body, /does not include API access/);
  });
});

describe('two-factor sign-in on the page', () => {
  test('after the password, a second page asks for the code; a wrong one is refused, the right one connects', async () => {
    const b = await register(t.app, { plan: 'business' });
    const api = as(t.app, b.token);
    const enrol = await api({ method: 'POST', url: '/auth/2fa/enrol' });
    const totp = URI.parse(enrol.json().otpauthUri) as TOTP;
    const code = () => {
      t.clock.advance(30_000);
      return totp.generate({ timestamp: t.clock.now().getTime() });
    };
    const confirm = await api({ method: 'POST', url: '/auth/2fa/confirm', payload: { totpCode: code() } });
    assert.equal(confirm.statusCode, 200, confirm.body);

    const page = await getPage(t.app, authorizeQuery(app.clientId));
    const fields = formFields(page.body);
    delete fields['grant.contacts:read'];
    const step1 = await postForm(t.app, { ...fields, ...person(b), action: 'allow' });
    assert.equal(step1.statusCode, 200, step1.body.slice(0, 300));
    assert.match(step1.body, /Two-factor code/);
    const step2 = formFields(step1.body);
    assert.ok(step2.pending, 'the sign-in is carried in the form');
    assert.ok(!step1.body.includes(b.password), 'the password is not carried');

    const wrong = await postForm(t.app, { ...step2, totp_code: '000000', action: 'allow' });
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /two-factor code is not valid/);
    // A forged pending state does not skip the password.
    const forged = await postForm(t.app, {
      ...step2,
      pending: `${step2.pending}x`,
      totp_code: code(),
      action: 'allow',
    });
    assert.equal(forged.statusCode, 400);
    assert.match(forged.body, /sign in again/);

    const params = redirected(await postForm(t.app, { ...step2, totp_code: code(), action: 'allow' }));
    assert.equal(params.get('state'), 'st-123');
    const res = await tokenCall(t.app, codeForm(params));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().scope.split(' ').sort(), ['companies:read', 'invoices:write']);
  });
});

describe('the token endpoint', () => {
  test("answers RFC 6749's token response; the token acts as the person with only the ticked scopes", async () => {
    const { business, tokens } = await connected(undefined, ['invoices:write']);
    assert.deepEqual(Object.keys(tokens).sort(), [
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.expires_in, 3600);
    assert.equal(
      tokens.scope,
      'contacts:read companies:read'.split(' ').sort().reverse().join(' ') === tokens.scope
        ? tokens.scope
        : tokens.scope,
    );
    assert.deepEqual(tokens.scope.split(' ').sort(), ['companies:read', 'contacts:read']);
    const call = as(t.app, tokens.access_token);
    const companies = await call({ method: 'GET', url: '/api/companies' });
    assert.equal(companies.statusCode, 200, companies.body);
    assert.equal(companies.json()[0].id, business.companyId, "the connecting business's data");
    const unticked = await call({ method: 'GET', url: '/api/users' });
    assert.equal(assertProblem(unticked, 403).code, 'INSUFFICIENT_SCOPE');
    const write = await call({ method: 'POST', url: '/api/companies', payload: { name: 'Nope' } });
    assert.equal(assertProblem(write, 403).code, 'INSUFFICIENT_SCOPE');
    // Metered like a key.
    assert.equal(companies.headers['x-ratelimit-limit'], '120');
  });

  test("the connection is in the person's key list (not the developer's), and revoking it there stops it", async () => {
    const { business, tokens } = await connected();
    const keys = (await as(t.app, business.token)({ method: 'GET', url: '/api/api-keys' })).json();
    assert.equal(keys.length, 1);
    assert.equal(keys[0].kind, 'oauth');
    assert.equal(keys[0].oauthClientId, app.clientId);
    assert.equal(keys[0].name, 'Stock Sync');
    assert.equal(keys[0].owner, 'user');
    assert.equal(keys[0].userId, business.userId);
    const devKeys = (await as(t.app, developer.token)({ method: 'GET', url: '/api/api-keys' })).json();
    assert.ok(!devKeys.some((k: { id: string }) => k.id === keys[0].id));

    const revoke = await as(t.app, business.token)({ method: 'DELETE', url: `/api/api-keys/${keys[0].id}` });
    assert.equal(revoke.statusCode, 204);
    assertProblem(await as(t.app, tokens.access_token)({ method: 'GET', url: '/api/companies' }), 401);
    const refresh = await tokenCall(t.app, refreshForm(tokens.refresh_token));
    assertOAuthError(refresh, 400, 'invalid_grant');
  });

  test('a connection cannot be exchanged as an API key at /auth/token', async () => {
    const { tokens } = await connected();
    for (const bearer of [tokens.refresh_token, tokens.access_token]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/token',
        headers: { authorization: `Bearer ${bearer}` },
      });
      assertProblem(res, 401);
    }
  });

  test('a code is good once: a second use is refused and revokes what the first made', async () => {
    const b = await register(t.app, { plan: 'business' });
    const params = await connect(t.app, authorizeQuery(app.clientId), person(b));
    const form = codeForm(params);
    const first = await tokenCall(t.app, form);
    assert.equal(first.statusCode, 200, first.body);
    assertOAuthError(await tokenCall(t.app, form), 400, 'invalid_grant');
    assertProblem(await as(t.app, first.json().access_token)({ method: 'GET', url: '/api/companies' }), 401);
  });

  test('a code expires after ten minutes', async () => {
    const b = await register(t.app, { plan: 'business' });
    const params = await connect(t.app, authorizeQuery(app.clientId), person(b));
    t.clock.advance(10 * 60_000 + 1_000);
    const res = await tokenCall(t.app, codeForm(params));
    assert.match(assertOAuthError(res, 400, 'invalid_grant').error_description, /expired/);
  });

  test('PKCE S256: the right verifier works; a wrong or missing one is refused', async () => {
    const b = await register(t.app, { plan: 'business' });
    const exchange = async (verifier: string | undefined) => {
      const pair = pkce();
      const params = await connect(
        t.app,
        authorizeQuery(app.clientId, { code_challenge: pair.challenge, code_challenge_method: 'S256' }),
        person(b),
      );
      return tokenCall(
        t.app,
        codeForm(
          params,
          verifier === undefined ? {} : { code_verifier: verifier === 'right' ? pair.verifier : verifier },
        ),
      );
    };
    assert.equal((await exchange('right')).statusCode, 200);
    assertOAuthError(await exchange(pkce().verifier), 400, 'invalid_grant');
    assertOAuthError(await exchange(undefined), 400, 'invalid_grant');
  });

  test('the redirect_uri must be the one of the request', async () => {
    const b = await register(t.app, { plan: 'business' });
    const params = await connect(t.app, authorizeQuery(app.clientId), person(b));
    const res = await tokenCall(t.app, codeForm(params, { redirect_uri: 'http://127.0.0.1:8123/cb' }));
    assertOAuthError(res, 400, 'invalid_grant');
  });

  test('the client must authenticate: no secret, a wrong one, or another app is invalid_client', async () => {
    const b = await register(t.app, { plan: 'business' });
    const other = await registerApp(t.app, developer.token, [REDIRECT], 'Other');
    const params = await connect(t.app, authorizeQuery(app.clientId), person(b));
    const base = { grant_type: 'authorization_code', code: params.get('code')!, redirect_uri: REDIRECT };
    assertOAuthError(await tokenCall(t.app, { ...base, client_id: app.clientId }), 401, 'invalid_client');
    assertOAuthError(
      await tokenCall(t.app, { ...base, client_id: app.clientId, client_secret: other.clientSecret }),
      401,
      'invalid_client',
    );
    // Another app with its own right secret cannot use this app's code.
    assertOAuthError(
      await tokenCall(t.app, { ...base, client_id: other.clientId, client_secret: other.clientSecret }),
      400,
      'invalid_grant',
    );
    // HTTP Basic works, and its refusal carries the challenge.
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const wrongBasic = await tokenCall(t.app, base, { authorization: basic(app.clientId, 'bpcs_wrong') });
    assertOAuthError(wrongBasic, 401, 'invalid_client');
    assert.match(String(wrongBasic.headers['www-authenticate']), /^Basic/);
    const ok = await tokenCall(t.app, base, { authorization: basic(app.clientId, app.clientSecret) });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('unknown or missing grant_type', async () => {
    const creds = { client_id: app.clientId, client_secret: app.clientSecret };
    assertOAuthError(
      await tokenCall(t.app, { ...creds, grant_type: 'password' }),
      400,
      'unsupported_grant_type',
    );
    assertOAuthError(await tokenCall(t.app, creds), 400, 'invalid_request');
  });
});

describe('refresh', () => {
  test('refused without the client secret; with it, a new pair; the old refresh token is single use', async () => {
    const { tokens } = await connected();
    const noSecret = await tokenCall(t.app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
    });
    assertOAuthError(noSecret, 401, 'invalid_client');
    const form = refreshForm(tokens.refresh_token);
    const next = await tokenCall(t.app, form);
    assert.equal(next.statusCode, 200, next.body);
    assert.notEqual(next.json().refresh_token, tokens.refresh_token);
    assert.equal(next.json().scope, tokens.scope);
    assert.equal(
      (await as(t.app, next.json().access_token)({ method: 'GET', url: '/api/companies' })).statusCode,
      200,
    );
    // The rotated-out token again: taken as stolen, the connection ends.
    assertOAuthError(await tokenCall(t.app, form), 400, 'invalid_grant');
    assertProblem(await as(t.app, next.json().access_token)({ method: 'GET', url: '/api/companies' }), 401);
  });

  test('a connection stops when its person is deactivated', async () => {
    const b = await register(t.app, { plan: 'business' });
    const admin = await addMember(t, b, 'admin');
    const { tokens } = await connected({
      ...b,
      email: admin.email,
      password: `pw ${admin.email}`,
    } as Registered);
    assert.equal(
      (await as(t.app, tokens.access_token)({ method: 'GET', url: '/api/companies' })).statusCode,
      200,
    );
    const off = await as(
      t.app,
      b.token,
    )({ method: 'PATCH', url: `/api/users/${admin.id}`, payload: { active: false } });
    assert.equal(off.statusCode, 200, off.body);
    assertProblem(await as(t.app, tokens.access_token)({ method: 'GET', url: '/api/companies' }), 401);
    const refresh = await tokenCall(t.app, refreshForm(tokens.refresh_token));
    assertOAuthError(refresh, 400, 'invalid_grant');
  });

  test('connecting the same app again replaces the earlier connection', async () => {
    const b = await register(t.app, { plan: 'business' });
    const first = await connected(b);
    const second = await connected(b);
    assertProblem(await as(t.app, first.tokens.access_token)({ method: 'GET', url: '/api/companies' }), 401);
    assert.equal(
      (await as(t.app, second.tokens.access_token)({ method: 'GET', url: '/api/companies' })).statusCode,
      200,
    );
    const live = (await as(t.app, b.token)({ method: 'GET', url: '/api/api-keys' }))
      .json()
      .filter((k: { revokedAt: string | null }) => !k.revokedAt);
    assert.equal(live.length, 1);
  });

  test('a deleted app can neither be connected nor refresh', async () => {
    const doomed = await registerApp(t.app, developer.token, [REDIRECT], 'Doomed');
    const b = await register(t.app, { plan: 'business' });
    const params = await connect(t.app, authorizeQuery(doomed.clientId), person(b));
    const res = await tokenCall(t.app, codeForm(params, {}, doomed));
    assert.equal(res.statusCode, 200, res.body);
    const del = await as(t.app, developer.token)({ method: 'DELETE', url: `/api/oauth/apps/${doomed.id}` });
    assert.equal(del.statusCode, 204);
    assert.equal((await getPage(t.app, authorizeQuery(doomed.clientId))).statusCode, 400);
    const refresh = await tokenCall(t.app, {
      grant_type: 'refresh_token',
      refresh_token: res.json().refresh_token,
      client_id: doomed.clientId,
      client_secret: doomed.clientSecret,
    });
    assertOAuthError(refresh, 401, 'invalid_client');
  });

  test('a connection is audited in the connecting business without its secrets', async () => {
    const { business, tokens } = await connected();
    const rows = await withTenant(t.database.db, business.tenantId, (tx) =>
      tx.selectFrom('audit_log').selectAll().where('resource', '=', 'oauth_connection').execute(),
    );
    assert.deepEqual(rows.map((r) => r.action).sort(), ['GET /oauth/authorize', 'POST /oauth/token']);
    const text = JSON.stringify(rows);
    assert.ok(!text.includes(tokens.refresh_token) && !text.includes(tokens.access_token));
  });
});

describe('discovery', () => {
  test('the authorization server metadata names the endpoints, S256 and the scopes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    assert.equal(res.statusCode, 200);
    const m = res.json();
    assert.equal(m.authorization_endpoint, `${m.issuer}/oauth/authorize`);
    assert.equal(m.token_endpoint, `${m.issuer}/oauth/token`);
    assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
    assert.ok(m.scopes_supported.includes('full'));
  });
});

describe('the contract', () => {
  test('both endpoints ignore parameters they do not know (RFC 6749 3.1, 3.2)', async () => {
    const business = await register(t.app, { plan: 'business' });
    const unknown = { prompt: 'consent', nonce: 'n-1', resource: 'https://api.example.com' };
    const page = await getPage(t.app, { ...authorizeQuery(app.clientId), ...unknown });
    assert.equal(page.statusCode, 200, page.body);
    const res = await postForm(t.app, {
      ...formFields(page.body),
      ...unknown,
      email: business.email,
      password: business.password,
      action: 'allow',
    });
    const params = redirected(res);
    const tokens = await tokenCall(t.app, { ...codeForm(params), ...unknown, audience: 'anything' });
    assert.equal(tokens.statusCode, 200, tokens.body);
    assert.equal(tokens.json().token_type, 'Bearer');
  });

  test('a refusal is RFC 6749 and a whole problem with its code', async () => {
    const creds = { client_id: app.clientId, client_secret: app.clientSecret };
    const grant = assertOAuthError(
      await tokenCall(t.app, { ...creds, grant_type: 'password' }),
      400,
      'unsupported_grant_type',
    );
    assert.equal(grant.code, 'VALIDATION_FAILED');
    assert.equal(grant.instance, '/oauth/token');
    const client = assertOAuthError(
      await tokenCall(t.app, { ...creds, client_secret: 'wrong', grant_type: 'refresh_token' }),
      401,
      'invalid_client',
    );
    assert.equal(client.code, 'INVALID_CREDENTIALS');
    assert.equal(client.detail, client.error_description);
  });

  test('an OAuth app carries createdAt and updatedAt; deleting it is its last change', async () => {
    const own = await registerApp(t.app, developer.token, [REDIRECT]);
    const api = as(t.app, developer.token);
    const created = (await api({ method: 'GET', url: `/api/oauth/apps/${own.id}` })).json();
    assert.match(created.createdAt, /Z$/);
    assert.equal(created.updatedAt, created.createdAt);
    t.clock.advance(1_000);
    assert.equal((await api({ method: 'DELETE', url: `/api/oauth/apps/${own.id}` })).statusCode, 204);
    const deleted = (await api({ method: 'GET', url: `/api/oauth/apps/${own.id}` })).json();
    assert.equal(deleted.createdAt, created.createdAt);
    assert.equal(deleted.updatedAt, deleted.deletedAt);
    assert.ok(deleted.updatedAt > created.updatedAt);
  });
});
