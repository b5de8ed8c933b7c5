// expense.rejected: emitted once, in the rejection's transaction, and delivered to a real
// receiver, verified with the standardwebhooks library (as bill.rejected is).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { claim, claimsSetup, ok } from './expenses.factories.ts';

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

test('rejecting a claim delivers expense.rejected once, signed, with date, description, amount and reason', async () => {
  const { b, owner, clerk } = await claimsSetup(t);
  const hook = await owner({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: `http://127.0.0.1:${receiver.port}/rejected`, eventTypes: ['expense.rejected'] },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  const c = await claim(clerk);
  await ok(owner, 'POST', `/api/expenses/${c.id}/reject`, { reason: 'Personal, not business' });
  const timeout = sleep(15_000).then(() => {
    throw new Error('timed out waiting for the delivery');
  });
  const req = await Promise.race([first, timeout]);
  const body = new Webhook(hook.json().secret).verify(req.body, req.headers as Record<string, string>) as {
    type: string;
    companyId: string;
    data: Record<string, unknown>;
  };
  assert.equal(body.type, 'expense.rejected');
  assert.equal(body.companyId, b.companyId);
  // The factory's claim: 2026-03-05, "Client lunch", 575.00 incl. VAT.
  assert.deepEqual(
    [body.data.expenseId, body.data.date, body.data.description, body.data.amount, body.data.reason],
    [c.id, '2026-03-05', 'Client lunch', 575, 'Personal, not business'],
  );
  // Nothing more arrives: every delivery of the tenant has finished.
  await t.deliveriesSettled(b.tenantId);
  assert.equal(receiver.received.length, 1);
});
