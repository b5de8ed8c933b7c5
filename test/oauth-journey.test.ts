// The OAuth journey as an integrator's app lives it: a real OAuth client library
// (oauth4webapi) discovers the service and exchanges codes over real HTTP on a listening
// port; a person signs in on the service's page in headless Chromium (Debian's, driven by
// playwright-core), with two-factor, and unticks a scope. Then the refused cases: a
// redirect address the app did not register, a code used twice, an expired code, a bad
// PKCE verifier, a refresh without the client secret.
//
// The server runs in this process (a real listening port) so that the test can move its
// clock past a code's ten minutes and make two-factor codes for it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { type TOTP, URI } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { register, startTestApp, type TestApp } from './support/app.ts';
import { chromiumSkip, launchChromium } from './support/chromium.ts';
import { freePort } from './support/server.ts';

const skip = chromiumSkip;

describe('OAuth journey: oauth4webapi and the sign-in page in headless Chromium', { skip }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let clientAuth: oauth.ClientAuth;
  let person: { email: string; password: string; token: string };
  let totp: TOTP;
  const insecure = { [oauth.allowInsecureRequests]: true }; // plain http on loopback, in a test

  before(async () => {
    // The service's address is in its config (the OAuth issuer), so the port is chosen first;
    // another test file may take it before listen (EADDRINUSE): then another port, a fresh app.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      t = await startTestApp({ config: { publicBaseUrl: base } });
      try {
        await t.app.listen({ host: '127.0.0.1', port });
        break;
      } catch (e) {
        // The last app is left for after() to close.
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw e;
        await t.close();
      }
    }

    // The app's own callback page: a real address for the browser to land on (any free port).
    callback = createServer((_req, res) => res.end('connected'));
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;

    browser = await launchChromium();

    // A developer's business registers the app over HTTP.
    const developer = await register(t.app, { plan: 'business' });
    const created = await fetch(`${base}/api/oauth/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${developer.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stock Sync', redirectUris: [redirectUri] }),
    });
    assert.equal(created.status, 201);
    const registered = (await created.json()) as { clientId: string; clientSecret: string };
    client = { client_id: registered.clientId };
    clientAuth = oauth.ClientSecretPost(registered.clientSecret);

    // Another business's owner, with two-factor sign-in, connects it.
    const owner = await register(t.app, { plan: 'business' });
    person = { email: owner.email, password: owner.password, token: owner.token };
    const enrol = await fetch(`${base}/auth/2fa/enrol`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    totp = URI.parse(((await enrol.json()) as { otpauthUri: string }).otpauthUri) as TOTP;
    const confirm = await fetch(`${base}/auth/2fa/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ totpCode: nextCode() }),
    });
    assert.equal(confirm.status, 200);

    // The library discovers the endpoints from the service's metadata.
    const issuer = new URL(base);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }),
    );
  });

  after(async () => {
    await browser?.close();
    // A before() that failed early leaves no callback server: nothing to wait for then.
    if (callback?.listening) await new Promise((resolve) => callback.close(resolve));
    await t?.close();
  });

  /** The authenticator's code for the next time step (each code is accepted once). */
  function nextCode(): string {
    t.clock.advance(30_000);
    return totp.generate({ timestamp: t.clock.now().getTime() });
  }

  function authorizationUrl(challenge: string, state: string, redirect = redirectUri): string {
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('redirect_uri', redirect);
    url.searchParams.set('scope', 'companies:read admin:read');
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  /** A person signs in on the page, unticks what is asked, and lands back on the app. */
  async function signInInBrowser(url: string, untick: string[] = []): Promise<URL> {
    const page: Page = await browser.newPage();
    try {
      await page.goto(url);
      assert.match(String(await page.locator('h1').textContent()), /Connect Stock Sync/);
      for (const scope of untick) await page.locator(`input[name="grant.${scope}"]`).uncheck();
      await page.getByLabel('E-mail').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in and allow' }).click();
      await page.getByLabel(/Code from your authenticator app/).fill(nextCode());
      await Promise.all([
        page.waitForURL((u) => u.href.startsWith(redirectUri)),
        page.getByRole('button', { name: 'Verify and allow' }).click(),
      ]);
      return new URL(page.url());
    } finally {
      await page.close();
    }
  }

  /** The whole front channel: a code for a fresh PKCE pair. */
  async function authorize(untick: string[] = []) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const landed = await signInInBrowser(
      authorizationUrl(await oauth.calculatePKCECodeChallenge(verifier), state),
      untick,
    );
    const params = oauth.validateAuthResponse(as, client, landed, state);
    return { params, verifier };
  }

  function exchange(params: URLSearchParams, verifier: string) {
    return oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      redirectUri,
      verifier,
      insecure,
    );
  }

  /** The RFC 6749 error code an oauth4webapi call was refused with. */
  async function refusedWith(fn: () => Promise<unknown>): Promise<string> {
    try {
      await fn();
    } catch (err) {
      if (err instanceof oauth.ResponseBodyError) return err.error;
      throw err;
    }
    assert.fail('the call was not refused');
  }

  async function api(token: string, path: string) {
    return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  }

  test('connect with two-factor, untick a scope; the token has only what was left; refresh rotates', async () => {
    const { params, verifier } = await authorize(['admin:read']);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange(params, verifier));
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.expires_in, 3600);
    assert.equal(tokens.scope, 'companies:read', 'the unticked scope is not granted');

    assert.equal((await api(tokens.access_token, '/api/companies')).status, 200);
    const users = await api(tokens.access_token, '/api/users');
    assert.equal(users.status, 403);
    assert.equal(((await users.json()) as { code: string }).code, 'INSUFFICIENT_SCOPE');

    // The connection sits in the person's key list.
    const keys = (await (await api(person.token, '/api/api-keys')).json()) as Array<{
      kind: string;
      name: string;
    }>;
    assert.ok(keys.some((k) => k.kind === 'oauth' && k.name === 'Stock Sync'));

    const renewed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    assert.notEqual(renewed.refresh_token, tokens.refresh_token);
    assert.equal((await api(renewed.access_token, '/api/companies')).status, 200);

    // Refused: the refresh token without the client secret.
    const error = await refusedWith(async () =>
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), renewed.refresh_token!, insecure),
      ),
    );
    assert.equal(error, 'invalid_client');

    // Refused: the same code a second time; and what it made is revoked.
    const again = await refusedWith(async () =>
      oauth.processAuthorizationCodeResponse(as, client, await exchange(params, verifier)),
    );
    assert.equal(again, 'invalid_grant');
    assert.equal((await api(renewed.access_token, '/api/companies')).status, 401);
  });

  test('refused: a redirect address the app did not register is never sent to', async () => {
    const page = await browser.newPage();
    try {
      const verifier = oauth.generateRandomCodeVerifier();
      const url = authorizationUrl(
        await oauth.calculatePKCECodeChallenge(verifier),
        'st',
        'http://127.0.0.1:9/elsewhere',
      );
      const res = await page.goto(url);
      assert.equal(res?.status(), 400);
      assert.ok(page.url().startsWith(base), 'the browser stays on the service');
      assert.match(
        String(await page.getByRole('alert').textContent()),
        /not one that “Stock Sync” registered/,
      );
    } finally {
      await page.close();
    }
  });

  test('refused: an expired code', async () => {
    const { params, verifier } = await authorize();
    t.clock.advance(10 * 60_000 + 1_000);
    const error = await refusedWith(async () =>
      oauth.processAuthorizationCodeResponse(as, client, await exchange(params, verifier)),
    );
    assert.equal(error, 'invalid_grant');
  });

  test('refused: a PKCE verifier that does not match the challenge', async () => {
    const { params } = await authorize();
    const error = await refusedWith(async () =>
      oauth.processAuthorizationCodeResponse(
        as,
        client,
        await exchange(params, oauth.generateRandomCodeVerifier()),
      ),
    );
    assert.equal(error, 'invalid_grant');
  });
});
