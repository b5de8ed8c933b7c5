// invoice.paid through reconciliation: a bank line matched to part of an invoice emits nothing;
// the line that settles it (here reconciled by the import itself, the system acting) emits
// invoice.paid once, delivered to a real receiver and verified with standardwebhooks.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { fetched } from '../invoices/invoices.factories.ts';
import { invoiceOf, lineOf, match, reconSetup } from './reconciliation.factories.ts';

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

test('matching bank lines records the payments and invoice.paid is delivered once, when settled', async () => {
  const b = await register(t.app, { plan: 'business' });
  const r = await reconSetup(t, b);
  const hook = await r.api({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: `http://127.0.0.1:${receiver.port}/paid/${b.tenantId}`, eventTypes: ['invoice.paid'] },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  const inv = await invoiceOf(r, 1000); // 1,150.00
  // 400.00 of it by a person: partially paid, no invoice.paid.
  const part = await lineOf(t, r, '400.00', 'THANDI DEPOSIT', '2026-04-02');
  await match(r, { bankTransactionId: part, invoices: [{ invoiceId: inv.id, amount: 400 }] });
  assert.equal((await fetched(r.sales, `/api/invoices/${inv.id}`)).amountDue, 750); // 1,150.00 - 400.00
  // The rest, 750.00, with the number in the reference: certain, reconciled by the import.
  await lineOf(t, r, '750.00', 'THANDI', '2026-04-03', inv.number);
  assert.equal((await fetched(r.sales, `/api/invoices/${inv.id}`)).status, 'paid');
  const payments = await fetched(r.sales, `/api/invoices/${inv.id}/payments`);
  assert.deepEqual(
    payments.map((p: { amount: number; date: string }) => [p.amount, p.date]),
    [
      [400, '2026-04-02'],
      [750, '2026-04-03'],
    ],
  );
  const arrived = () => receiver.received.filter((q) => q.url === `/paid/${b.tenantId}`);
  const [req] = await eventually('the delivery', () => arrived().length >= 1 && arrived());
  const body = new Webhook(hook.json().secret).verify(req!.body, req!.headers as Record<string, string>) as {
    type: string;
    data: { id: string; status: string; amountDue: number };
  };
  assert.equal(body.type, 'invoice.paid');
  assert.deepEqual([body.data.id, body.data.status, body.data.amountDue], [inv.id, 'paid', 0]);
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
