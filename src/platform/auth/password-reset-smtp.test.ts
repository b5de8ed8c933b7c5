// The reset e-mail over real SMTP: a local smtp-server receives what nodemailer sends once
// the job worker picks the message up after commit, and the token it carries resets the password.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { register, sha256, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../../../test/support/smtp-receiver.ts';
import { login, resetEmails, tokenFromEmail } from './auth.factories.ts';

let smtp: SmtpReceiver;
let t: TestApp;

before(async () => {
  smtp = await startSmtpReceiver();
  t = await startTestApp({ config: { smtpUrl: smtp.url } });
});

after(async () => {
  await t.close();
  await smtp.close();
});

const received = () => smtp.received.map((m) => ({ ...m, raw: m.raw.toString('utf8') }));

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text part of a raw message, quoted-printable undone when it was used. */
function bodyText(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(headers)) return body;
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

test('the reset e-mail reaches a real SMTP server after commit, and its token works', async () => {
  const a = await register(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/forgot-password',
    payload: { email: a.email },
  });
  assert.equal(res.statusCode, 202);

  const message = await waitFor('the reset e-mail', () => received().find((m) => m.to.includes(a.email)));
  assert.deepEqual(message.to, [a.email]);
  assert.match(message.raw, /^Subject: Reset your password\r?$/m);
  const text = bodyText(message.raw);
  const token = tokenFromEmail(text);
  assert.ok(text.includes(`${t.deps.config.publicBaseUrl}/reset-password?token=`));
  assert.ok(token.startsWith(`${a.tenantId}.`));

  // The stored copy is marked sent once delivery has finished.
  const row = await waitFor('the e-mail marked sent', async () => {
    const [mail] = await resetEmails(t, a.tenantId);
    return mail?.status === 'sent' ? mail : undefined;
  });
  assert.ok(row.sent_at);
  assert.equal(tokenFromEmail(row.text_body), token);

  const reset = await t.app.inject({
    method: 'POST',
    url: '/auth/reset-password',
    payload: { token, password: sha256('Delivered by SMTP') },
  });
  assert.equal(reset.statusCode, 204, reset.body);
  assert.equal((await login(t.app, a.email, 'Delivered by SMTP')).statusCode, 200);
});

test('an unknown address sends nothing', async () => {
  const before = smtp.received.length;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/forgot-password',
    payload: { email: `nobody.${crypto.randomUUID()}@example.co.za` },
  });
  assert.equal(res.statusCode, 202);
  // A known address in the same run is delivered within this wait, so silence means nothing was sent.
  const a = await register(t.app);
  await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: a.email } });
  await waitFor('the known address', () => received().find((m) => m.to.includes(a.email)));
  assert.equal(smtp.received.length, before + 1);
});
