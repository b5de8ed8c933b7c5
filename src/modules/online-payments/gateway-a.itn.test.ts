// Gateway A's ITN job on a moved clock (pg-boss's TestClock, the app's clock kept in step): the
// gateway's validate endpoint down keeps the notification received and the job retried on its
// schedule, until the gateway answers and the payment is taken; two runs of one payment at once
// take it once.
//
// Figures: the invoice is R1,000 + 15% VAT = R1,150.00, paid in full by the ITN.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { TestClock } from 'pg-boss';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type FakeGatewayA, startFakeGatewayA } from '../../../test/support/fake-gateway-a.ts';
import { type MovedClock, movedClock } from '../../../test/support/moved-clock.ts';
import { fetched } from '../invoices/invoices.factories.ts';
import { checkItn, GATEWAY_A_ITN_QUEUE, GATEWAY_A_ITN_RETRY } from './gateway-a.itn.ts';
import { GATEWAY_A_KEYS, insertLink, onlineSetup, openInvoice, setGateway } from './online.factories.ts';

let t: TestApp;
let clock: TestClock;
let moved: MovedClock;
let fake: FakeGatewayA;
let base: string;
before(async () => {
  // From now: the tokens of sign-in are signed with the real time.
  const start = new Date();
  clock = new TestClock(start);
  t = await startTestApp({ jobsClock: clock });
  t.clock.set(start);
  moved = movedClock(t, clock, [GATEWAY_A_ITN_QUEUE]);
  fake = await startFakeGatewayA();
  t.deps.config.gatewayABaseUrl = fake.url;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(async () => {
  await fake.close();
  await t.close();
});

async function ready() {
  const o = await onlineSetup(t);
  await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
  const invoice = await openInvoice(o);
  const link = await insertLink(t, o, invoice.id, 'gatewaya');
  const fields = fake.itnFields({ m_payment_id: link.id, custom_str1: o.tenantId, custom_str2: invoice.id });
  const notify = `${base}/webhooks/gatewaya/itn/${o.tenantId}`;
  return { o, invoice, fields, notify };
}

const validateCalls = () => fake.requests.filter((r) => r.path === '/eng/query/validate');

test("the gateway's validate endpoint down: the ITN stays received and is retried, then taken", async () => {
  const { o, invoice, fields, notify } = await ready();
  fake.validate = 500;
  const before = validateCalls().length;
  const sent = await fake.sendItn(notify, fields);
  assert.equal(sent.status, 200, sent.answer);
  const id = JSON.parse(sent.answer).id;
  await moved.settled();
  let n = await fetched(o, `/api/payment-notifications/${id}`);
  assert.equal(n.status, 'received');
  assert.match(n.outcome, /Waiting for the gateway's confirmation/);
  assert.deepEqual(
    n.checks.map((c: { check: string; passed: boolean }) => [c.check, c.passed]),
    [
      ['merchant', true],
      ['signature', true],
      ['validate', false],
    ],
  );
  assert.equal(validateCalls().length, before + 1);
  // The gateway is back; the retry comes after the schedule's first delay (30 s).
  fake.validate = 'normal';
  await moved.jumpTo(new Date(clock.now() + (GATEWAY_A_ITN_RETRY[0]! + 1) * 1000).toISOString());
  await moved.settled();
  n = await fetched(o, `/api/payment-notifications/${id}`);
  assert.equal(n.status, 'matched', n.outcome);
  assert.equal(validateCalls().length, before + 2);
  const inv = await fetched(o, `/api/invoices/${invoice.id}`);
  assert.deepEqual([inv.status, inv.amountDue], ['paid', 0]);
});

test('one payment notified twice and checked at once: taken once, the other a duplicate', async () => {
  const { o, invoice, fields, notify } = await ready();
  const a = JSON.parse((await fake.sendItn(notify, fields)).answer).id;
  const b = JSON.parse((await fake.sendItn(notify, fields)).answer).id;
  // Both runs at once (the worker may run them too: each run finds the row done and stops).
  await Promise.all([
    checkItn(t.deps, { tenantId: o.tenantId, notificationId: a }),
    checkItn(t.deps, { tenantId: o.tenantId, notificationId: b }),
  ]);
  await moved.settled();
  const statuses = [
    (await fetched(o, `/api/payment-notifications/${a}`)).status,
    (await fetched(o, `/api/payment-notifications/${b}`)).status,
  ].sort();
  assert.deepEqual(statuses, ['duplicate', 'matched']);
  const payments = await fetched(o, `/api/invoices/${invoice.id}/payments`);
  assert.equal(payments.length, 1);
  assert.equal(payments[0].amount, 1150);
});
