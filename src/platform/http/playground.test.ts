import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { OPENAPI_PATH } from '../../app.ts';
import { PLAYGROUND_COMPANY_KEY, PLAYGROUND_DOCUMENT_SLUG, PLAYGROUND_PATH } from './playground.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** Every address a page would load: script and link sources, plus any absolute URL at all. */
function offSite(html: string): string[] {
  const loaded = [
    ...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi),
  ]
    .map((m) => m[1]!)
    .filter((url) => /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(url));
  const absolute = [...html.matchAll(/\bhttps?:\/\/[^\s"'<>)]+/gi)].map((m) => m[0]);
  return [...loaded, ...absolute];
}

async function page(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  assert.equal(res.statusCode, 200, `${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return res;
}

describe('playground', () => {
  test('the console answers 200 HTML without a token and loads nothing off-site', async () => {
    const res = await page(`${PLAYGROUND_PATH}/`);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.deepEqual(offSite(res.body), []);
    // Scalar's own bundle, served by us, with the OpenAPI document it renders.
    assert.match(res.body, /<script src="js\/scalar\.js"><\/script>/);
    assert.ok(res.body.includes(`"url": "${OPENAPI_PATH}"`));
    // No web fonts from Scalar's CDN, no telemetry.
    assert.match(res.body, /"withDefaultFonts": false/);
    assert.match(res.body, /"telemetry": false/);
  });

  test('the browser is told to load nothing from another origin', async () => {
    for (const url of [`${PLAYGROUND_PATH}/`, `${PLAYGROUND_PATH}/sign-in`]) {
      const csp = String((await page(url)).headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/, url);
      assert.match(csp, /connect-src 'self'/, url);
      assert.match(csp, /font-src 'self' data:/, url);
      assert.doesNotMatch(csp, /https?:/, url);
    }
  });

  test('the Scalar bundle is served locally as JavaScript', async () => {
    const res = await page(`${PLAYGROUND_PATH}/js/scalar.js`);
    assert.match(String(res.headers['content-type']), /^application\/javascript/);
    assert.ok(res.body.length > 100_000);
  });

  test('the address without the trailing slash redirects to the console', async () => {
    const res = await t.app.inject({ method: 'GET', url: PLAYGROUND_PATH });
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, `${PLAYGROUND_PATH}/`);
  });

  test('sign-in: Scalar keeps the token it is given, and calls carry the chosen company', async () => {
    const res = await page(`${PLAYGROUND_PATH}/`);
    assert.match(res.body, /"persistAuth": true/);
    assert.ok(res.body.includes(`"slug": "${PLAYGROUND_DOCUMENT_SLUG}"`));
    assert.match(res.body, /"preferredSecurityScheme": "bearerAuth"/);
    // customFetch is written into the page as source and reads the company the sign-in page kept.
    assert.match(res.body, /"customFetch": \(input\s*,\s*init\s*\) =>/);
    assert.ok(res.body.includes(`localStorage.getItem('${PLAYGROUND_COMPANY_KEY}')`));
  });

  test('the sign-in page is local HTML and script that log in with the SHA-256 of the password', async () => {
    const html = await page(`${PLAYGROUND_PATH}/sign-in`);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.deepEqual(offSite(html.body), []);
    assert.ok(html.body.includes(`<script src="${PLAYGROUND_PATH}/sign-in.js"></script>`));
    assert.doesNotMatch(html.body, /__[A-Z_]+__/, 'placeholders are filled in');

    const js = await page(`${PLAYGROUND_PATH}/sign-in.js`);
    assert.match(String(js.headers['content-type']), /^application\/javascript/);
    assert.deepEqual(offSite(js.body), []);
    assert.doesNotMatch(js.body, /__[A-Z_]+__/);
    assert.ok(js.body.includes("crypto.subtle.digest('SHA-256'"));
    assert.ok(js.body.includes("fetch('/auth/login'"));
    assert.ok(js.body.includes(`'scalar-reference-auth-${PLAYGROUND_DOCUMENT_SLUG}'`));
    assert.ok(js.body.includes(`'${PLAYGROUND_COMPANY_KEY}'`));
  });
});
