// POST /api/invoices/{id}/send through the real job worker to a real SMTP server (smtp-server):
// the e-mail arrives with the PDF attached (parsed back), its subject and text name the company,
// the number, the total and the due date; the answer (202) never waits for the mail server;
// sentAt is set; the customer's address or the one given; no address is a 400 naming `to`; a
// draft is 409; another tenant's id is 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestClock } from 'pg-boss';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { pdfPages } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import {
  attachmentsOf,
  mimeParts,
  type SmtpReceiver,
  startSmtpReceiver,
} from '../../../test/support/smtp-receiver.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { EMAIL_QUEUE } from '../../platform/mail/mailer.ts';
import { createDoc, release, type Sales, salesSetup } from './invoices.factories.ts';

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
async function eventually<T>(what: string, fn: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v) return v;
    await clock.tick(250);
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const arrived = (to: string) => smtp.received.filter((m) => m.to.includes(to));

/** A header of a message, unfolded and decoded from RFC 2047 words where needed. */
function header(raw: Buffer, name: string): string {
  const head = raw
    .toString()
    .split('\r\n\r\n')[0]!
    .replace(/\r\n[ \t]+/g, ' ');
  const line = new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1] ?? '';
  return line.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** The message's plain text, decoded (quoted-printable or base64). */
function textOf(raw: Buffer): string {
  const part = mimeParts(raw).find((p) => /content-type:\s*text\/plain/i.test(p.headers))!;
  const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(part.headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable')
    return Buffer.from(
      part.body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  return part.body;
}

async function setup(
  email: string | null = 'accounts@thandi.example.com',
): Promise<Sales & { tenantId: string }> {
  const b = await register(t.app, { companyName: 'Protea Trading (Pty) Ltd' });
  const s = await salesSetup(t, b);
  // Each test's customer has an address of its own, so that messages are told apart.
  const res = await s.api({ method: 'PATCH', url: `/api/contacts/${s.customerId}`, payload: { email } });
  assert.equal(res.statusCode, 200, res.body);
  await s.api({
    method: 'PATCH',
    url: '/api/invoice-settings',
    payload: { bankName: 'First National Bank', bankAccountNumber: '62000000001', bankBranchCode: '250655' },
  });
  return { ...s, tenantId: b.tenantId };
}

const address = (who: string) => `${who}.${crypto.randomUUID().slice(0, 8)}@example.co.za`;

describe('sending a document', () => {
  test("to the customer's address: 202 at once, the e-mail arrives with the PDF, sentAt set", async () => {
    const to = address('thandi');
    const s = await setup(to);
    const doc = await createDoc(s);
    await release(s, doc.id);
    const res = await s.api({
      method: 'POST',
      url: `/api/invoices/${doc.id}/send`,
      payload: { message: 'Thank you for the order of 2 March.' },
    });
    assert.equal(res.statusCode, 202, res.body);
    const sent = res.json();
    assert.equal(sent.to, to);
    assert.equal(sent.status, 'queued');
    assert.match(sent.emailId, /^[0-9a-f-]{36}$/);
    assert.equal(
      sent.subject,
      'Tax Invoice INV-0001 from Protea Trading (Pty) Ltd: R 1 149.99 due 1 April 2026',
    );
    const invoice = (await s.api({ method: 'GET', url: `/api/invoices/${doc.id}` })).json();
    assert.equal(invoice.sentAt, sent.sentAt);
    assert.equal(invoice.sentAt, '2026-03-20T10:00:00.000Z');

    const message = await eventually('the invoice e-mail', async () => arrived(to)[0]);
    assert.equal(header(message.raw, 'Subject'), sent.subject);
    const text = textOf(message.raw);
    for (const s of [
      'Dear Thandi Stores (Pty) Ltd',
      'Thank you for the order of 2 March.',
      'Tax Invoice INV-0001, dated 2 March 2026, for R 1 149.99, due on 1 April 2026.',
      'Bank: First National Bank',
      'Account number: 62000000001',
      'Reference: INV-0001',
      'Kind regards\r\nProtea Trading (Pty) Ltd',
    ]) {
      assert.ok(text.includes(s), `"${s}" in:\n${text}`);
    }
    const files = attachmentsOf(message.raw);
    assert.deepEqual(
      files.map((f) => [f.filename, f.contentType]),
      [['INV-0001.pdf', 'application/pdf']],
    );
    const [page] = await pdfPages(files[0]!.content);
    for (const s of ['Tax Invoice', 'INV-0001', 'VAT No. 4123456789', 'Consulting', 'R 1 149.99']) {
      assert.ok(page!.includes(s), `"${s}" in the attached PDF`);
    }
    // The same bytes as the download.
    const download = await s.api({ method: 'GET', url: `/api/invoices/${doc.id}/pdf` });
    assert.deepEqual(await pdfPages(download.rawPayload), await pdfPages(files[0]!.content));
    const row = await eventually('marked sent', async () => {
      const r = await withTenant(t.database.db, s.tenantId, (tx) =>
        tx.selectFrom('emails').selectAll().where('id', '=', sent.emailId).executeTakeFirst(),
      );
      return r?.status === 'sent' && r;
    });
    assert.equal(row.kind, 'invoice');
  });

  test('a slow mail server never holds the request: 202 at once, the e-mail when the server answers', async () => {
    const s = await setup();
    const doc = await createDoc(s);
    await release(s, doc.id);
    const to = address('slow');
    smtp.hold(5_000);
    try {
      const before = smtp.received.length;
      // A first message occupies the slow server.
      const warm = await s.api({ method: 'POST', url: `/api/invoices/${doc.id}/send`, payload: { to } });
      assert.equal(warm.statusCode, 202, warm.body);
      await eventually('the server holding the first message', async () => smtp.held() >= 1);
      const started = performance.now();
      const res = await s.api({ method: 'POST', url: `/api/invoices/${doc.id}/send`, payload: { to } });
      const took = performance.now() - started;
      assert.equal(res.statusCode, 202, res.body);
      assert.ok(took < 2_500, `the send took ${took.toFixed(0)} ms`);
      assert.equal(smtp.received.length, before, 'nothing was taken by the server before the answers');
      smtp.release();
      await eventually('both e-mails', async () => arrived(to).length === 2);
    } finally {
      smtp.release();
    }
  });

  test('to the address given; a second send sends again and moves sentAt', async () => {
    const s = await setup();
    const doc = await createDoc(s, { documentType: 'quote' });
    await release(s, doc.id);
    const to = address('buyer');
    const first = await s.api({ method: 'POST', url: `/api/invoices/${doc.id}/send`, payload: { to } });
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(
      first.json().subject,
      'Quote QUO-0001 from Protea Trading (Pty) Ltd: R 1 149.99, valid until 1 April 2026',
    );
    t.clock.set('2026-03-21T08:00:00Z');
    const second = await s.api({ method: 'POST', url: `/api/invoices/${doc.id}/send`, payload: { to } });
    assert.equal(second.statusCode, 202);
    assert.equal(
      (await s.api({ method: 'GET', url: `/api/invoices/${doc.id}` })).json().sentAt,
      '2026-03-21T08:00:00.000Z',
    );
    t.clock.set('2026-03-20T10:00:00Z');
    await eventually('both quotes', async () => arrived(to).length === 2);
    assert.equal(attachmentsOf(arrived(to)[0]!.raw)[0]!.filename, 'QUO-0001.pdf');
  });

  test('no address anywhere is a 400 naming to; a bad one too; nothing is sent or marked', async () => {
    const s = await setup(null);
    const doc = await createDoc(s);
    await release(s, doc.id);
    const none = assertProblem(
      await s.api({ method: 'POST', url: `/api/invoices/${doc.id}/send`, payload: {} }),
      400,
    );
    assert.equal(none.field, 'to');
    assert.match(String(none.detail), /Thandi Stores \(Pty\) Ltd has no e-mail address/);
    const bad = await s.api({
      method: 'POST',
      url: `/api/invoices/${doc.id}/send`,
      payload: { to: 'not an address' },
    });
    assert.equal(assertProblem(bad, 400).field, 'to');
    assert.equal((await s.api({ method: 'GET', url: `/api/invoices/${doc.id}` })).json().sentAt, null);
  });

  test('a draft is 409 NOT_RELEASED, a voided document 409 DOCUMENT_VOID', async () => {
    const s = await setup();
    const draft = await createDoc(s);
    const refused = assertProblem(
      await s.api({ method: 'POST', url: `/api/invoices/${draft.id}/send`, payload: {} }),
      409,
    );
    assert.equal(refused.code, 'NOT_RELEASED');
    await release(s, draft.id);
    assert.equal((await s.api({ method: 'DELETE', url: `/api/invoices/${draft.id}` })).statusCode, 200);
    const voided = assertProblem(
      await s.api({ method: 'POST', url: `/api/invoices/${draft.id}/send`, payload: {} }),
      409,
    );
    assert.equal(voided.code, 'DOCUMENT_VOID');
  });

  test("another tenant's id is a 404, and sends nothing", async () => {
    const a = await setup();
    const b = await setup();
    const doc = await createDoc(a);
    await release(a, doc.id);
    const total = async () => Object.values(await t.deps.jobs.counts(EMAIL_QUEUE)).reduce((x, y) => x + y, 0);
    const jobs = await total();
    const to = address('intruder');
    assertProblem(await b.api({ method: 'POST', url: `/api/invoices/${doc.id}/send`, payload: { to } }), 404);
    assert.equal(await total(), jobs, 'no e-mail job');
    assert.equal((await a.api({ method: 'GET', url: `/api/invoices/${doc.id}` })).json().sentAt, null);
  });
});
