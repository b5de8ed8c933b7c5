// The public pay page in headless Chromium (Debian's, driven by playwright-core), the app on a
// real port (publicBaseUrl is its address): the summary and the pay button; gateway B's button
// leads to the fake gateway's checkout page; gateway A's form posts to {gatewayABaseUrl}/eng/process
// and its signature verifies (it is not submitted: the gateway A fake is another piece of work);
// expired, revoked, paid, foreign-currency, unknown and unavailable pages say so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { chromiumSkip, launchChromium } from '../../../test/support/chromium.ts';
import { type FakeGatewayB, startFakeGatewayB } from '../../../test/support/fake-gateway-b.ts';
import { freePort } from '../../../test/support/server.ts';
import { createDoc, pay } from '../invoices/invoices.factories.ts';
import { paramStringOf, signParamString } from './gateway-a.protocol.ts';
import {
  GATEWAY_A_KEYS,
  GATEWAY_B_KEYS,
  insertLink,
  type Online,
  onlineSetup,
  openInvoice,
  setGateway,
} from './online.factories.ts';

const skip = chromiumSkip;

const GATEWAY_A_BASE = 'https://sandbox.gatewaya.example.com';

describe('the pay page in headless Chromium', { skip }, () => {
  let t: TestApp;
  let base: string;
  let fake: FakeGatewayB;
  let browser: Browser;
  let page: Page;

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ jobsWork: false, config: { publicBaseUrl: base } });
    await t.app.listen({ host: '127.0.0.1', port });
    fake = await startFakeGatewayB(GATEWAY_B_KEYS.secretKey);
    t.deps.config.gatewayBBaseUrl = fake.url;
    t.deps.config.gatewayABaseUrl = GATEWAY_A_BASE;
    browser = await launchChromium();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await fake.close();
  });

  async function link(o: Online, invoiceId: string, payload: object = {}) {
    const res = await o.api({ method: 'POST', url: `/api/invoices/${invoiceId}/payment-links`, payload });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; url: string; checkoutUrl: string | null };
  }

  async function open(url: string) {
    const res = await page.goto(url);
    assert.ok(res, 'an answer');
    return { status: res.status(), headers: res.headers(), text: (await page.textContent('main')) ?? '' };
  }

  test('gateway A: the summary, and a form to {base}/eng/process whose signature verifies', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    // R1,150.00 less R150.00 paid leaves R1,000.00 due: the form asks for that.
    assert.equal((await pay(o, inv.id, 150)).statusCode, 201);
    const l = await link(o, inv.id);
    assert.ok(l.url.startsWith(`${base}/pay/`));
    const { status, headers, text } = await open(l.url);
    assert.equal(status, 200, text);
    assert.match(headers['content-security-policy']!, /default-src 'none'/);
    assert.match(headers['content-security-policy']!, new RegExp(`form-action ${GATEWAY_A_BASE}`));
    const company = (await o.api({ method: 'GET', url: `/api/companies/${o.companyId}` })).json();
    assert.ok(text.includes(company.name), text);
    assert.ok(text.includes(`Invoice ${inv.number}`), text);
    assert.equal(await page.textContent('#customer'), 'Thandi Stores (Pty) Ltd');
    assert.equal(await page.textContent('#issued'), '2 March 2026');
    assert.equal(await page.textContent('#due-date'), '1 April 2026');
    assert.equal(await page.textContent('#total'), 'R 1 150.00');
    assert.equal(await page.textContent('#paid'), 'R 150.00');
    assert.equal(await page.textContent('#amount-due'), 'R 1 000.00');
    assert.equal(await page.textContent('#pay'), 'Pay R 1 000.00 now');
    assert.equal(await page.getAttribute('#pay-form', 'action'), `${GATEWAY_A_BASE}/eng/process`);
    assert.equal(await page.getAttribute('#pay-form', 'method'), 'post');
    const fields = await page.$$eval('#pay-form input[type=hidden]', (inputs) =>
      inputs.map((i) => [i.getAttribute('name')!, i.getAttribute('value')!] as [string, string]),
    );
    const signed = Object.fromEntries(fields);
    assert.equal(fields.at(-1)![0], 'signature', 'the signature comes last');
    assert.equal(signed.merchant_id, GATEWAY_A_KEYS.merchantId);
    assert.equal(signed.m_payment_id, l.id);
    assert.equal(signed.amount, '1000.00');
    assert.equal(signed.custom_str1, o.tenantId);
    assert.equal(signed.custom_str2, inv.id);
    assert.equal(signed.notify_url, `${base}/webhooks/gatewaya/itn/${o.tenantId}`);
    assert.equal(signed.return_url, `${l.url}?result=success`);
    assert.equal(signed.cancel_url, `${l.url}?result=cancelled`);
    // Recomputed the gateway's way: the fields in order, the passphrase appended.
    const expected = signParamString(paramStringOf(fields.slice(0, -1)), GATEWAY_A_KEYS.passphrase);
    assert.equal(signed.signature, expected);
  });

  test("gateway B: the button leads to the gateway's checkout page", async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewayb', GATEWAY_B_KEYS);
    const inv = await openInvoice(o);
    const l = await link(o, inv.id);
    const { status, text } = await open(l.url);
    assert.equal(status, 200, text);
    assert.equal(await page.getAttribute('#pay', 'href'), l.checkoutUrl);
    await Promise.all([page.waitForURL(l.checkoutUrl!), page.click('#pay')]);
    assert.match((await page.textContent('body')) ?? '', /Gateway B checkout[\s\S]*R1150\.00/);
    // Back from the gateway before its notification arrives.
    const back = await open(`${l.url}?result=success`);
    assert.equal(back.status, 200);
    assert.match(back.text, /Payment received, being confirmed/);
    assert.equal(await page.$('#pay'), null, 'no button while it is confirmed');
    const cancelled = await open(`${l.url}?result=cancelled`);
    assert.match(cancelled.text, /cancelled\. You can try again/);
    assert.ok(await page.$('#pay'), 'the button again');
  });

  test('expired and revoked links are 410 and say so; a paid invoice thanks without a button', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    const expired = await insertLink(t, o, inv.id, 'gatewaya', { expiresAt: new Date(Date.now() - 1000) });
    const e = await open(`${base}/pay/${expired.token}`);
    assert.equal(e.status, 410);
    assert.match(e.text, /This payment link has expired/);
    const revoked = await link(o, inv.id);
    const r = await o.api({
      method: 'POST',
      url: `/api/invoices/${inv.id}/payment-links/${revoked.id}/revoke`,
    });
    assert.equal(r.statusCode, 200, r.body);
    const rv = await open(revoked.url);
    assert.equal(rv.status, 410);
    assert.match(rv.text, /cancelled by the business/);
    const live = await link(o, inv.id);
    assert.equal((await pay(o, inv.id, 1150)).statusCode, 201);
    const p = await open(live.url);
    assert.equal(p.status, 200);
    assert.match(p.text, /This invoice is paid\. Thank you!/);
    assert.equal(await page.textContent('#amount-due'), 'R 0.00');
    assert.equal(await page.$('#pay'), null, 'no button once paid');
  });

  test('a foreign-currency invoice is 422 on opening; an unknown token 404; a gateway gone 503 with the reason', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    // The API refuses such a link (links.test.ts): only a row written directly can exist.
    const usd = await createDoc(o, { currency: 'USD' });
    const foreign = await insertLink(t, o, usd.id, 'gatewaya');
    const f = await open(`${base}/pay/${foreign.token}`);
    assert.equal(f.status, 422);
    assert.match(f.text, /online payment takes rand \(ZAR\) only/);
    assert.equal(await page.$('#pay'), null);
    const unknown = await open(`${base}/pay/${'A'.repeat(46)}`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /Payment link not found/);
    const inv = await openInvoice(o);
    const l = await link(o, inv.id);
    const off = await o.api({ method: 'DELETE', url: '/api/payment-gateways/gatewaya' });
    assert.equal(off.statusCode, 200, off.body);
    const u = await open(l.url);
    assert.equal(u.status, 503);
    assert.match(u.text, /Online payment is unavailable at the moment: Gateway A has no credentials/);
    assert.equal(await page.$('#pay'), null);
  });
});
