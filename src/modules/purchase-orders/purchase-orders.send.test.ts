// POST /api/purchase-orders/{id}/send through the real job worker to a real SMTP server
// (smtp-server): 202 at once, the order becomes sent, the e-mail arrives at the supplier's
// address with the order's PDF attached (parsed back: the number, supplier, lines and total),
// the same document as GET .../pdf; no address is a 400 naming `to`; a cancelled order is 409.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestClock } from 'pg-boss';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { pdfPages } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { attachmentsOf, type SmtpReceiver, startSmtpReceiver } from '../../../test/support/smtp-receiver.ts';
import { type Purchases, purchasesSetup } from '../bills/bills.factories.ts';
import { fieldOf, order } from './purchase-orders.factories.ts';

let t: TestApp;
let clock: TestClock;
let smtp: SmtpReceiver;

before(async () => {
  clock = new TestClock(new Date('2026-03-20T10:00:00Z'));
  smtp = await startSmtpReceiver();
  t = await startTestApp({ config: { smtpUrl: smtp.url }, jobsClock: clock });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(async () => {
  await t.close();
  await smtp.close();
});

/** Polls `fn`, moving the worker's clock a little each time (it polls on that clock). */
async function eventually<T>(what: string, fn: () => T | undefined): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = fn();
    if (v) return v;
    await clock.tick(250);
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function setup(email: string | null): Promise<Purchases> {
  const b = await register(t.app, { plan: 'starter', companyName: 'Protea Trading (Pty) Ltd' });
  const p = await purchasesSetup(t, b);
  const res = await p.api({ method: 'PATCH', url: `/api/contacts/${p.supplierId}`, payload: { email } });
  assert.equal(res.statusCode, 200, res.body);
  return p;
}

describe('sending a purchase order', () => {
  test("to the supplier's address: 202, sent, the e-mail arrives with the PDF", async () => {
    const to = `orders.${crypto.randomUUID().slice(0, 8)}@karoo.example.co.za`;
    const p = await setup(to);
    const po = await order(p, { expectedDate: '2026-03-09' });
    const res = await p.api({
      method: 'POST',
      url: `/api/purchase-orders/${po.id}/send`,
      payload: { message: 'Please deliver to the back entrance.' },
    });
    assert.equal(res.statusCode, 202, res.body);
    const sent = res.json();
    // 10 × 100.00 + 15% VAT (s7(1)(a)) = 1,150.00.
    assert.deepEqual(
      [sent.to, sent.status, sent.subject, sent.purchaseOrder.status, sent.purchaseOrder.sentAt],
      [
        to,
        'queued',
        'Purchase Order PO-0001 from Protea Trading (Pty) Ltd: R 1 150.00',
        'sent',
        '2026-03-20T10:00:00.000Z',
      ],
    );
    const message = await eventually('the order e-mail', () => smtp.received.find((m) => m.to.includes(to)));
    const raw = message.raw.toString();
    assert.ok(raw.includes('Please deliver to the back entrance.'), raw.slice(0, 2000));
    const files = attachmentsOf(message.raw);
    assert.deepEqual(
      files.map((f) => [f.filename, f.contentType]),
      [['PO-0001.pdf', 'application/pdf']],
    );
    assert.equal(files[0]!.content.subarray(0, 5).toString('latin1'), '%PDF-');
    const [page] = await pdfPages(files[0]!.content);
    for (const s of ['Purchase Order PO-0001', 'Karoo Office Supplies CC', 'A4 paper, ream', '1 150.00']) {
      assert.ok(page!.includes(s), `"${s}" in the attached PDF:\n${page}`);
    }
    assert.ok(!page!.includes('DRAFT'), 'a sent order is not marked DRAFT');
    const download = await p.api({ method: 'GET', url: `/api/purchase-orders/${po.id}/pdf` });
    const [downloaded] = await pdfPages(download.rawPayload);
    // The same document but for its footer's time of making.
    assert.equal(downloaded!.replace(/made .*UTC/, ''), page!.replace(/made .*UTC/, ''));
  });

  test('no address: 400 naming to; a cancelled order is 409 ORDER_CLOSED', async () => {
    const p = await setup(null);
    const po = await order(p);
    const none = await p.api({ method: 'POST', url: `/api/purchase-orders/${po.id}/send`, payload: {} });
    assertProblem(none, 400);
    assert.equal(fieldOf(none), 'to');
    const to = { to: 'orders@karoo.example.co.za' };
    const ok = await p.api({ method: 'POST', url: `/api/purchase-orders/${po.id}/send`, payload: to });
    assert.equal(ok.statusCode, 202, ok.body);
    const cancelled = await p.api({ method: 'POST', url: `/api/purchase-orders/${po.id}/cancel` });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const again = await p.api({ method: 'POST', url: `/api/purchase-orders/${po.id}/send`, payload: to });
    assert.equal(assertProblem(again, 409).code, 'ORDER_CLOSED');
  });
});
