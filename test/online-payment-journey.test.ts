// An online payment as the customer lives it, in headless Chromium (Debian's, driven by
// playwright-core): the business makes a payment link for an invoice through the API; the
// customer opens /pay/{token}, presses pay, lands on gateway A's payment page (the local fake
// speaking PayFast's protocol), pays; the gateway posts its signed ITN to the service and sends
// the customer back. The job worker checks the ITN (signature, the gateway's validate call, the
// merchant, the amount) and records the payment; invoice.paid reaches the business's webhook
// once, signed; the page then says the invoice is paid, and the link no longer takes money.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { fetched } from '../src/modules/invoices/invoices.factories.ts';
import {
  GATEWAY_A_KEYS,
  onlineSetup,
  openInvoice,
  setGateway,
} from '../src/modules/online-payments/online.factories.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { chromiumSkip, launchChromium } from './support/chromium.ts';
import { type FakeGatewayA, startFakeGatewayA } from './support/fake-gateway-a.ts';
import { type Receiver, startReceiver } from './support/http-receiver.ts';
import { freePort } from './support/server.ts';

const skip = chromiumSkip;

describe('an invoice paid online through gateway A, in headless Chromium', { skip }, () => {
  let t: TestApp;
  let base: string;
  let gateway: FakeGatewayA;
  let receiver: Receiver;
  let browser: Browser;

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ config: { publicBaseUrl: base, webhookAllowPrivateTargets: true } });
    await t.app.listen({ host: '127.0.0.1', port });
    gateway = await startFakeGatewayA([{ ...GATEWAY_A_KEYS }]);
    t.deps.config.gatewayABaseUrl = gateway.url;
    receiver = await startReceiver((_req, res) => res.writeHead(204).end());
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await gateway?.close();
    await receiver?.close();
    await t?.close();
  });

  test('link → pay page → the gateway → ITN → paid, invoice.paid once, the page says paid', async () => {
    // Webhooks come with the business plan.
    const o = await onlineSetup(t, 'business');
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const hook = await o.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: `http://127.0.0.1:${receiver.port}/paid`, eventTypes: ['invoice.paid'] },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const secret = hook.json().secret as string;
    // R1,000.00 + 15% VAT = R1,150.00 due.
    const invoice = await openInvoice(o);
    const made = await o.api({
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payment-links`,
      payload: {},
    });
    assert.equal(made.statusCode, 201, made.body);
    const link = made.json() as { url: string };

    const page = await browser.newPage();
    const opened = await page.goto(link.url);
    assert.equal(opened?.status(), 200);
    const summary = (await page.textContent('main')) ?? '';
    assert.match(summary, new RegExp(invoice.number));
    assert.match(summary, /1[\s,]?150\.00/);

    // Pay: the signed form takes the customer to the gateway's page (the fake checks the
    // merchant key and the signature, as the gateway does), and "Pay now" completes it.
    await Promise.all([page.waitForURL(`${gateway.url}/eng/process`), page.click('#pay')]);
    assert.match((await page.textContent('body')) ?? '', /1150\.00/);
    await Promise.all([page.waitForURL(/\/pay\/.*result=success/), page.click('text=Pay now')]);

    // The ITN reached the service (answered 200 at once); the job worker checks and records it.
    assert.equal(gateway.sent.length, 1);
    assert.equal(gateway.sent[0]!.status, 200, gateway.sent[0]!.answer);
    let status = '';
    for (let i = 0; i < 150 && status !== 'paid'; i++) {
      status = ((await fetched(o, `/api/invoices/${invoice.id}`)) as { status: string }).status;
      if (status !== 'paid') await sleep(100);
    }
    assert.equal(status, 'paid');
    const inbox = (await fetched(o, '/api/payment-notifications')) as {
      items: Array<{ status: string; checks: Array<{ check: string; passed: boolean }> }>;
    };
    assert.equal(inbox.items.length, 1);
    assert.equal(inbox.items[0]!.status, 'matched');
    assert.ok(
      inbox.items[0]!.checks.every((c) => c.passed),
      JSON.stringify(inbox.items[0]!.checks),
    );

    // invoice.paid, once, signed (Standard Webhooks, verified with the library).
    await t.drainEvents();
    const arrived = () => receiver.received.filter((r) => r.url === '/paid');
    for (let i = 0; i < 150 && arrived().length === 0; i++) await sleep(100);
    // A moment more: a second delivery, were there one, would have come by now.
    await sleep(500);
    const paid = arrived();
    assert.equal(paid.length, 1);
    const event = new Webhook(secret).verify(paid[0]!.body, paid[0]!.headers as Record<string, string>) as {
      type: string;
      data: { id: string };
    };
    assert.equal(event.type, 'invoice.paid');
    assert.equal(event.data.id, invoice.id);

    // The page, opened again, says the invoice is paid and offers no button.
    await page.goto(link.url);
    assert.match((await page.textContent('main')) ?? '', /paid/i);
    assert.equal(await page.$('#pay'), null);
    await page.close();
  });
});
