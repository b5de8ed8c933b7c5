// Recurring invoices with autoSend, run by the real job worker on a moved clock (pg-boss's
// TestClock, the app's clock in step) and e-mailed to a real SMTP server: each generated and
// released invoice arrives once, with its own PDF, and has sentAt; running a period's job again
// sends nothing more; a customer whose address was removed gets nothing and lastError says so;
// autoSend needs autoRelease and an address (400 naming autoSend).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestClock } from 'pg-boss';
import {
  as,
  type Registered,
  register,
  sha256,
  startTestApp,
  type TestApp,
} from '../../../test/support/app.ts';
import { type MovedClock, movedClock } from '../../../test/support/moved-clock.ts';
import { pdfPages } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { attachmentsOf, type SmtpReceiver, startSmtpReceiver } from '../../../test/support/smtp-receiver.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { EMAIL_QUEUE } from '../../platform/mail/mailer.ts';
import { type Sales, salesSetup } from './invoices.factories.ts';
import { RECURRING_QUEUE, runRecurring } from './recurring.run.ts';

let t: TestApp;
let clock: TestClock;
let smtp: SmtpReceiver;
before(async () => {
  clock = new TestClock(new Date('2021-12-20T08:00:00Z'));
  smtp = await startSmtpReceiver();
  t = await startTestApp({ jobsClock: clock, config: { smtpUrl: smtp.url } });
  t.clock.set('2021-12-20T08:00:00Z');
  moved = movedClock(t, clock, [RECURRING_QUEUE, EMAIL_QUEUE]);
});
after(async () => {
  await t.close();
  await smtp.close();
});

// Both clocks in step; the worker polls until no recurring or e-mail job is due.
let moved: MovedClock;

async function moveTo(moment: string) {
  await moved.jumpTo(moment);
  await moved.settled();
}

const DAY_MS = 86_400_000;

/** A tenant with a customer whose e-mail address is `email`; its calls sign in again as the clock moves. */
async function tenant(email: string | null): Promise<{ b: Registered; s: Sales }> {
  const b = await register(t.app, { companyName: 'Protea Trading (Pty) Ltd' });
  const sales = await salesSetup(t, b);
  let token = b.token;
  let since = t.clock.now().getTime();
  const api: Sales['api'] = async (opts) => {
    if (t.clock.now().getTime() - since > 20 * DAY_MS) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: b.email, password: sha256(b.password) },
      });
      assert.equal(res.statusCode, 200, res.body);
      token = res.json().accessToken;
      since = t.clock.now().getTime();
    }
    return as(t.app, token, b.companyId)(opts);
  };
  const res = await api({ method: 'PATCH', url: `/api/contacts/${sales.customerId}`, payload: { email } });
  assert.equal(res.statusCode, 200, res.body);
  return { b, s: { api, customerId: sales.customerId } };
}

const address = (who: string) => `${who}.${crypto.randomUUID().slice(0, 8)}@example.co.za`;
const arrived = (to: string) => smtp.received.filter((m) => m.to.includes(to));

async function create(s: Sales, o: Record<string, unknown>) {
  return s.api({
    method: 'POST',
    url: '/api/recurring',
    payload: {
      contactId: s.customerId,
      frequency: 'monthly',
      lines: [{ description: 'Bookkeeping retainer', quantity: 1, unitPrice: 4500 }],
      ...o,
    },
  });
}

interface Doc {
  id: string;
  number: string;
  issueDate: string;
  status: string;
  sentAt: string | null;
}

async function docs(s: Sales, recurringId: string): Promise<Doc[]> {
  const res = await s.api({ method: 'GET', url: `/api/recurring/${recurringId}/invoices?limit=200` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().items;
}

describe('autoSend', () => {
  test('each generated invoice is released and e-mailed once, with its own PDF', async () => {
    const to = address('thandi');
    const { b, s } = await tenant(to);
    const res = await create(s, { startDate: '2022-01-01', autoRelease: true, autoSend: true });
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.deepEqual([r.autoRelease, r.autoSend], [true, true]);
    await moved.settled();
    for (const moment of ['2022-01-01T06:00:00Z', '2022-02-01T06:00:00Z', '2022-03-01T06:00:00Z']) {
      await moveTo(moment);
    }
    const made = await docs(s, r.id);
    assert.deepEqual(
      made.map((d) => [d.number, d.issueDate, d.status === 'draft', d.sentAt?.slice(0, 10)]),
      [
        ['INV-0001', '2022-01-01', false, '2022-01-01'],
        ['INV-0002', '2022-02-01', false, '2022-02-01'],
        ['INV-0003', '2022-03-01', false, '2022-03-01'],
      ],
    );
    const messages = arrived(to);
    assert.equal(messages.length, 3, 'one e-mail per invoice');
    for (const [i, message] of messages.entries()) {
      const number = `INV-000${i + 1}`;
      const [file] = attachmentsOf(message.raw);
      assert.equal(file!.filename, `${number}.pdf`);
      const [page] = await pdfPages(file!.content);
      for (const s of ['Tax Invoice', number, 'Bookkeeping retainer', 'R 5 175.00']) {
        assert.ok(page!.includes(s), `"${s}" in the PDF of ${number}`);
      }
      assert.match(
        message.raw.toString(),
        new RegExp(`^Subject: Tax Invoice ${number} from Protea Trading`, 'm'),
      );
    }

    // The January job run again (a retry after its commit, a second worker): nothing more is made or sent.
    await runRecurring(t.deps)({
      id: crypto.randomUUID(),
      name: RECURRING_QUEUE,
      data: { tenantId: b.tenantId, recurringId: r.id, period: '2022-01-01' },
      attempt: 2,
    });
    await moved.settled();
    assert.equal((await docs(s, r.id)).length, 3);
    const stored = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx.selectFrom('emails').select(['to_address', 'status']).where('tenant_id', '=', b.tenantId).execute(),
    );
    assert.deepEqual(
      stored.filter((e) => e.to_address === to).map((e) => e.status),
      ['sent', 'sent', 'sent'],
    );
    assert.equal(arrived(to).length, 3);
    const del = await s.api({ method: 'DELETE', url: `/api/recurring/${r.id}` });
    assert.equal(del.statusCode, 204);
  });

  test('an address removed since: the invoice is made and released, not sent, and lastError says so', async () => {
    await moveTo('2022-03-10T08:00:00Z');
    const to = address('gone');
    const { s } = await tenant(to);
    const r = (await create(s, { startDate: '2022-04-01', autoRelease: true, autoSend: true })).json();
    const cleared = await s.api({
      method: 'PATCH',
      url: `/api/contacts/${s.customerId}`,
      payload: { email: null },
    });
    assert.equal(cleared.statusCode, 200, cleared.body);
    await moveTo('2022-04-01T06:00:00Z');
    const [doc] = await docs(s, r.id);
    assert.equal(doc!.status, 'open');
    assert.equal(doc!.sentAt, null);
    const now = (await s.api({ method: 'GET', url: `/api/recurring/${r.id}` })).json();
    assert.match(now.lastError, /^INV-0001 was not e-mailed: .*has no e-mail address/);
    assert.equal(now.active, true, 'the schedule goes on');
    assert.equal(arrived(to).length, 0);
    await s.api({ method: 'DELETE', url: `/api/recurring/${r.id}` });
  });

  test('autoSend needs autoRelease and a customer with an address: 400 naming autoSend', async () => {
    const { s } = await tenant(address('x'));
    const noRelease = await create(s, { startDate: '2022-06-01', autoSend: true });
    assert.equal(assertProblem(noRelease, 400).field, 'autoSend');
    const ok = (await create(s, { startDate: '2022-06-01', autoSend: true, autoRelease: true })).json();
    const off = await s.api({
      method: 'PATCH',
      url: `/api/recurring/${ok.id}`,
      payload: { autoRelease: false },
    });
    assert.equal(assertProblem(off, 400).field, 'autoSend');
    const both = await s.api({
      method: 'PATCH',
      url: `/api/recurring/${ok.id}`,
      payload: { autoRelease: false, autoSend: false },
    });
    assert.equal(both.statusCode, 200, both.body);
    const { s: noAddress } = await tenant(null);
    const refused = await create(noAddress, { startDate: '2022-06-01', autoSend: true, autoRelease: true });
    const body = assertProblem(refused, 400);
    assert.equal(body.field, 'autoSend');
    assert.match(String(body.detail), /no e-mail address/);
  });
});
