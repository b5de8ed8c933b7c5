// invoice.paid: emitted once, in the payment's transaction, when a payment settles the whole
// balance; delivered to a real receiver and verified with the standardwebhooks library.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { pay, released, salesSetup } from './invoices.factories.ts';

let t: TestApp;
let receiver: Receiver;
before(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
  receiver = await startReceiver((_req, res) => res.writeHead(204).end());
});
after(async () => {
  await receiver.close();
  await t.close();
});

async function eventually<T>(what: string, fn: () => T | undefined | false): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = fn();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('a partial payment emits nothing; the payment that settles emits invoice.paid once, signed, with the invoice', async () => {
  const b = await register(t.app, { plan: 'business' });
  const s = await salesSetup(t, b);
  const hook = await s.api({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: `http://127.0.0.1:${receiver.port}/paid/${b.tenantId}`, eventTypes: ['invoice.paid'] },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  const secret = hook.json().secret;
  const inv = await released(s);
  assert.equal((await pay(s, inv.id, 100)).statusCode, 201);
  // Two final payments at once: one settles, the other finds nothing left to pay (409).
  const [x, y] = await Promise.all([pay(s, inv.id, 1049.99), pay(s, inv.id, 1049.99)]);
  assert.deepEqual([x.statusCode, y.statusCode].sort(), [201, 409]);
  const arrived = () => receiver.received.filter((r) => r.url === `/paid/${b.tenantId}`);
  const [req] = await eventually('the delivery', () => arrived().length >= 1 && arrived());
  const body = new Webhook(secret).verify(req!.body, req!.headers as Record<string, string>) as {
    type: string;
    companyId: string;
    data: {
      id: string;
      number: string;
      status: string;
      total: number;
      amountDue: number;
      contactName: string;
    };
  };
  assert.equal(body.type, 'invoice.paid');
  assert.equal(body.companyId, b.companyId);
  assert.deepEqual(
    [
      body.data.id,
      body.data.number,
      body.data.status,
      body.data.total,
      body.data.amountDue,
      body.data.contactName,
    ],
    [inv.id, 'INV-0001', 'paid', 1149.99, 0, 'Thandi Stores (Pty) Ltd'],
  );
  // Nothing more arrives, and the outbox holds exactly one invoice.paid.
  await t.deliveriesSettled(b.tenantId);
  assert.equal(arrived().length, 1);
  const events = await withTenant(t.database.db, b.tenantId, (tx) =>
    tx
      .selectFrom('events')
      .select('type')
      .where('tenant_id', '=', b.tenantId)
      .where('type', '=', 'invoice.paid')
      .execute(),
  );
  assert.equal(events.length, 1);
});
