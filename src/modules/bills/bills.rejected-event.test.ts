// bill.rejected: emitted once, in the rejection's transaction, and delivered to a real receiver,
// verified with the standardwebhooks library (as invoice.paid is: invoices.paid-event.test.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { act, created, purchasesSetup } from './bills.factories.ts';

let t: TestApp;
let receiver: Receiver;
let arrived: (r: ReceivedRequest) => void;
const first = new Promise<ReceivedRequest>((resolve) => {
  arrived = resolve;
});
before(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
  receiver = await startReceiver((req, res) => {
    res.writeHead(204).end();
    arrived(req);
  });
});
after(async () => {
  await receiver.close();
  await t.close();
});

test('rejecting a bill delivers bill.rejected once, signed, with number, supplier, amounts and reason', async () => {
  const b = await register(t.app, { plan: 'business' });
  const p = await purchasesSetup(t, b);
  const hook = await p.api({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: `http://127.0.0.1:${receiver.port}/rejected`, eventTypes: ['bill.rejected'] },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  const bill = await created(p);
  await act(p, bill.id, 'submit');
  await act(p, bill.id, 'reject', { reason: 'Duplicate of an emailed invoice' });
  const timeout = sleep(15_000).then(() => {
    throw new Error('timed out waiting for the delivery');
  });
  const req = await Promise.race([first, timeout]);
  const body = new Webhook(hook.json().secret).verify(req.body, req.headers as Record<string, string>) as {
    type: string;
    companyId: string;
    data: Record<string, unknown>;
  };
  assert.equal(body.type, 'bill.rejected');
  assert.equal(body.companyId, b.companyId);
  // 1,000.00 + 15% and 200.00 exempt: 1,200.00 net, 150.00 VAT, 1,350.00 (bills.factories.ts).
  assert.deepEqual(
    [
      body.data.billId,
      body.data.billNumber,
      body.data.vendor,
      body.data.subtotal,
      body.data.vatAmount,
      body.data.amount,
    ],
    [bill.id, 'KOS-1001', 'Karoo Office Supplies CC', 1200, 150, 1350],
  );
  assert.equal(body.data.reason, 'Duplicate of an emailed invoice');
  // Nothing more arrives: every delivery of the tenant has finished.
  await t.deliveriesSettled(b.tenantId);
  assert.equal(receiver.received.length, 1);
});
