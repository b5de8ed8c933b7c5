// E-mail through the job worker, over real SMTP: a local smtp-server receives what nodemailer
// sends. A slow mail server never holds a request; attachments arrive byte for byte; a
// transient refusal is retried on the schedule and then sent; a permanent one fails at once;
// a rolled-back request sends nothing. Time for the worker is pg-boss's TestClock, moved.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestClock } from 'pg-boss';
import { Type } from 'typebox';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { attachmentsOf, type SmtpReceiver, startSmtpReceiver } from '../../../test/support/smtp-receiver.ts';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.ts';
import { withTenant } from '../db/tenant.ts';
import { type AnyRoute, defineRoute } from '../http/catalogue.ts';
import { conflict } from '../http/problem.ts';
import { EMAIL_QUEUE, type MailMessage, sendMail } from './mailer.ts';
import { EMAIL_MAX_ATTEMPTS, EMAIL_RETRY_SCHEDULE } from './send.ts';

// A write that e-mails, then either commits or fails (and so rolls back).
const mailRoute: AnyRoute = defineRoute({
  method: 'POST',
  path: '/test/mail',
  module: 'platform',
  access: 'write',
  permission: null,
  summary: 'Sends an e-mail, then fails when asked to',
  body: Type.Object({ to: Type.String(), fail: Type.Boolean() }),
  response: { 200: Type.Object({ id: Type.String() }) },
  handler: async ({ body }, ctx) => {
    const id = await sendMail(ctx, { to: body.to, subject: 'From a request', text: 'Hello', kind: 'test' });
    if (body.fail) throw conflict('the change is refused after the e-mail was queued');
    return { id };
  },
});

let t: TestApp;
let clock: TestClock;
let smtp: SmtpReceiver;
/** The app reaches the mail server through it, so that a test can take the server away. */
let line: TcpProxy;

before(async () => {
  clock = new TestClock(new Date('2026-11-22T08:00:00Z'));
  smtp = await startSmtpReceiver();
  line = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(smtp.url).port) });
  t = await startTestApp({
    config: { smtpUrl: `smtp://127.0.0.1:${line.port}` },
    jobsClock: clock,
    extraRoutes: [mailRoute],
  });
});
after(async () => {
  await t.close();
  await line.close();
  await smtp.close();
});

/** Polls `fn`, moving the worker's clock a little each time (it polls on that clock). */
async function eventually<T>(what: string, fn: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v) return v;
    await clock.tick(250);
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits until no send is running, so that a clock jump does not pass under one. */
async function sendsSettled() {
  await eventually('the send to finish', async () => (await t.deps.jobs.counts(EMAIL_QUEUE)).active === 0);
}

const address = (who: string) => `${who}.${crypto.randomUUID().slice(0, 8)}@example.co.za`;
const arrived = (to: string) => smtp.received.filter((m) => m.to.includes(to));

async function emailRow(tenantId: string, to: string) {
  const rows = await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .selectFrom('emails')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('to_address', '=', to)
      .execute(),
  );
  assert.ok(rows.length <= 1);
  return rows[0];
}

/** Stores and queues a message in a tenant transaction of its own, as a job or service does. */
function mail(b: Registered, message: Omit<MailMessage, 'kind' | 'subject' | 'text'> & Partial<MailMessage>) {
  return withTenant(t.database.db, b.tenantId, (tx) =>
    sendMail(
      { db: tx, tenantId: b.tenantId, deps: t.deps },
      { subject: 'A message', text: 'Hello', kind: 'test', ...message },
    ),
  );
}

describe('a slow mail server', () => {
  test('unreachable: the message stays queued, and goes out once when the server is back (issue 15)', async () => {
    const b = await register(t.app);
    const to = address('outage');
    line.cut();
    await mail(b, { to });
    // No connection is a transient failure: recorded, still queued, nothing lost.
    const first = await eventually('the failed try recorded', async () => {
      const r = await emailRow(b.tenantId, to);
      return r?.attempts === 1 && r;
    });
    assert.equal(first.status, 'queued');
    assert.ok(first.error, 'the reason is kept');
    await sendsSettled();
    line.restore();
    // The retry, a minute later, reaches the server: sent, once.
    await clock.setTime(clock.now() + EMAIL_RETRY_SCHEDULE[0]! * 1000);
    const sent = await eventually('sent on the retry', async () => {
      const r = await emailRow(b.tenantId, to);
      return r?.status === 'sent' && r;
    });
    assert.deepEqual([sent.attempts, sent.error], [2, null]);
    assert.equal(arrived(to).length, 1);
  });

  test('holds no request: the invitation answers at once, the e-mail arrives when the server answers', async () => {
    const owner = await register(t.app);
    // The server now sits on every message for up to 5 s before taking it.
    smtp.hold(5_000);
    try {
      const invitee = address('invitee');
      const before = smtp.received.length;
      const started = performance.now();
      const res = await as(
        t.app,
        owner.token,
      )({ method: 'POST', url: '/api/users', payload: { email: invitee, name: 'Lerato', roleId: 'sales' } });
      const invitedIn = performance.now() - started;
      assert.equal(res.statusCode, 201, res.body);
      assert.ok(invitedIn < 2_500, `the invitation took ${invitedIn.toFixed(0)} ms`);
      assert.equal(smtp.received.length, before, 'nothing was taken by the server before the answer');

      // Forgot-password, too, answers within its own floor while the server is slow.
      const startedForgot = performance.now();
      const forgot = await t.app.inject({
        method: 'POST',
        url: '/auth/forgot-password',
        payload: { email: owner.email },
      });
      const forgotIn = performance.now() - startedForgot;
      assert.equal(forgot.statusCode, 202);
      assert.ok(forgotIn < 2_500, `forgot-password took ${forgotIn.toFixed(0)} ms`);

      // The worker is sending both now, and the server is holding them.
      await eventually('both messages held by the server', async () => smtp.held() === 2);
      assert.equal((await emailRow(owner.tenantId, invitee))?.status, 'queued');
      smtp.release();
      const invitation = await eventually('the invitation', async () => arrived(invitee)[0]);
      assert.match(invitation.raw.toString(), /^Subject: You are invited to /m);
      await eventually('the reset e-mail', async () => arrived(owner.email)[0]);
      const row = await eventually('marked sent', async () => {
        const r = await emailRow(owner.tenantId, invitee);
        return r?.status === 'sent' && r;
      });
      assert.equal(row.attempts, 1);
      assert.ok(row.sent_at);
      assert.equal(row.error, null);
    } finally {
      smtp.release();
    }
  });
});

describe('attachments', () => {
  test('arrive with their bytes intact, in order, and are kept with the message', async () => {
    const b = await register(t.app);
    const to = address('accounts');
    // Every byte value, and more than one base64 line's worth.
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(150_000)]);
    const csv = Buffer.from('number,total\r\nINV-0001,1149.99\r\n\u0000\u00ff end', 'latin1');
    const id = await mail(b, {
      to,
      subject: 'Invoice INV-0001',
      kind: 'invoice',
      attachments: [
        { filename: 'INV-0001.pdf', contentType: 'application/pdf', content: pdf },
        { filename: 'lines.csv', contentType: 'text/csv', content: csv },
      ],
    });
    const message = await eventually('the invoice', async () => arrived(to)[0]);
    const files = attachmentsOf(message.raw);
    assert.deepEqual(
      files.map((f) => [f.filename, f.contentType]),
      [
        ['INV-0001.pdf', 'application/pdf'],
        ['lines.csv', 'text/csv'],
      ],
    );
    assert.ok(files[0]!.content.equals(pdf), 'the PDF arrived byte for byte');
    assert.ok(files[1]!.content.equals(csv), 'the CSV arrived byte for byte');

    const kept = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('email_attachments')
        .selectAll()
        .where('tenant_id', '=', b.tenantId)
        .where('email_id', '=', id)
        .orderBy('position')
        .execute(),
    );
    assert.deepEqual(
      kept.map((a) => [a.position, a.filename, a.content_type, a.size]),
      [
        [0, 'INV-0001.pdf', 'application/pdf', pdf.length],
        [1, 'lines.csv', 'text/csv', csv.length],
      ],
    );
    assert.ok(Buffer.from(kept[0]!.content).equals(pdf));
    // Another tenant sees none of them.
    const other = await register(t.app);
    const foreign = await withTenant(t.database.db, other.tenantId, (tx) =>
      tx.selectFrom('email_attachments').select('id').where('email_id', '=', id).execute(),
    );
    assert.deepEqual(foreign, []);
  });
});

describe('failures', () => {
  test('a transient refusal is retried a minute later and then sent, once', async () => {
    const b = await register(t.app);
    const to = address('busy');
    smtp.refuse(to, { code: 451, message: '4.3.0 Mailbox busy, try again later' });
    await mail(b, { to });
    const first = await eventually('the first try recorded', async () => {
      const r = await emailRow(b.tenantId, to);
      return r?.attempts === 1 && r;
    });
    assert.equal(first.status, 'queued');
    assert.match(first.error ?? '', /451/);
    await sendsSettled();
    // Not before its minute is up.
    await clock.setTime(clock.now() + EMAIL_RETRY_SCHEDULE[0]! * 1000 - 10_000);
    await clock.tick(2_500);
    await sleep(100);
    assert.equal(arrived(to).length, 0);
    await clock.setTime(clock.now() + 10_000);
    const sent = await eventually('sent on the retry', async () => {
      const r = await emailRow(b.tenantId, to);
      return r?.status === 'sent' && r;
    });
    assert.equal(sent.attempts, 2);
    assert.equal(sent.error, null);
    assert.equal(arrived(to).length, 1);
  });

  test('a permanent refusal (5yz) fails at once, with the reason, and is not retried', async () => {
    const b = await register(t.app);
    const to = address('nobody');
    smtp.refuse(to, { code: 550, message: '5.1.1 No such mailbox' }, 10);
    await mail(b, { to });
    const failed = await eventually('failed', async () => {
      const r = await emailRow(b.tenantId, to);
      return r?.status === 'failed' && r;
    });
    assert.equal(failed.attempts, 1);
    assert.match(failed.error ?? '', /550.*No such mailbox/);
    await sendsSettled();
    await clock.setTime(clock.now() + 3 * 3600_000);
    await clock.tick(2_500);
    await sleep(200);
    assert.equal((await emailRow(b.tenantId, to))?.attempts, 1, 'no second try');
    assert.equal(arrived(to).length, 0);
  });

  test(`a server that keeps deferring: ${EMAIL_MAX_ATTEMPTS} tries on the schedule, then failed`, async () => {
    const b = await register(t.app);
    const to = address('deferred');
    smtp.refuse(to, { code: 421, message: '4.7.0 Try again later' }, EMAIL_MAX_ATTEMPTS + 1);
    await mail(b, { to });
    await eventually('the first try', async () => (await emailRow(b.tenantId, to))?.attempts === 1);
    for (const [i, delay] of EMAIL_RETRY_SCHEDULE.entries()) {
      await sendsSettled();
      await clock.setTime(clock.now() + delay * 1000);
      await eventually(`try ${i + 2}`, async () => (await emailRow(b.tenantId, to))?.attempts === i + 2);
    }
    const row = await eventually('failed', async () => {
      const r = await emailRow(b.tenantId, to);
      return r?.status === 'failed' && r;
    });
    assert.equal(row.attempts, EMAIL_MAX_ATTEMPTS);
    assert.match(row.error ?? '', /421/);
    assert.equal(arrived(to).length, 0);
  });
});

describe('transactions', () => {
  test('a rolled-back request stores and sends nothing; a committed one sends', async () => {
    const b = await register(t.app);
    const api = as(t.app, b.token);
    const jobsBefore = await t.deps.jobs.counts(EMAIL_QUEUE);
    const lost = address('lost');
    const refused = await api({ method: 'POST', url: '/test/mail', payload: { to: lost, fail: true } });
    assert.equal(refused.statusCode, 409, refused.body);
    const kept = address('kept');
    const ok = await api({ method: 'POST', url: '/test/mail', payload: { to: kept, fail: false } });
    assert.equal(ok.statusCode, 200, ok.body);
    // The committed one arrives; the rolled-back one, queued before it, would have by then.
    await eventually('the committed e-mail', async () => arrived(kept)[0]);
    await sendsSettled();
    assert.equal(arrived(lost).length, 0);
    assert.equal(await emailRow(b.tenantId, lost), undefined);
    const jobsAfter = await t.deps.jobs.counts(EMAIL_QUEUE);
    const total = (c: typeof jobsBefore) => Object.values(c).reduce((x, y) => x + y, 0);
    assert.equal(total(jobsAfter), total(jobsBefore) + 1, 'one job: the committed request’s');
  });
});
