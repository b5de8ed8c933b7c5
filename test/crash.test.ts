// Fault (issue 15): `kill -9` of the serving process during a stream of writes (invoices, their
// release and a payment each, four clients at once). After a restart on the same data:
//   * every write answered 2xx before the kill is there, exactly once (creates carry a clientId,
//     and every create is sent again with it: an answered one replays its record, one cut off in
//     flight either replays what committed or is made now, never a second copy);
//   * nothing is half-written: a released document has its journal entry, a payment its entry,
//     and the documents agree with the ledger (debtors control = what the documents say is due);
//   * the ledger balances.
// Runs on PGlite (DATA_DIR on disk) and, with DATABASE_URL, on a PostgreSQL database of its own.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sha256 } from './support/app.ts';
import { emptyPgDatabase } from './support/db.ts';
import { freePort, type RunningServer, startMain } from './support/server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'bp-crash-'));
let database: Awaited<ReturnType<typeof emptyPgDatabase>> | undefined;
let env: Record<string, string | undefined> & { PORT: string };
let running: RunningServer | undefined;

before(async () => {
  if (process.env.DATABASE_URL) database = await emptyPgDatabase(process.env.DATABASE_URL);
  env = { DATA_DIR: dataDir, DATABASE_URL: database?.url, PORT: String(await freePort()) };
});
after(async () => {
  if (running) running.child.kill('SIGKILL');
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Session {
  url: string;
  token: string;
  companyId: string;
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the service answered
type Json = any;

async function api(s: Session, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${s.token}`,
      'x-company-id': s.companyId,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
}

const invoiceBody = (contactId: string, clientId: string) => ({
  clientId,
  contactId,
  documentType: 'invoice',
  issueDate: '2026-11-02',
  dueDate: '2026-11-30',
  // The company is not VAT-registered: 100, no VAT.
  lines: [{ description: 'Crash-test widget', quantity: 1, unitPrice: 100 }],
});
const paymentBody = (clientId: string) => ({ clientId, amount: 100, date: '2026-11-10' });

/** Writes that failed before the kill: none may. */
const unexpected: string[] = [];

/** What a client saw answered 2xx before the kill, by the clientId of the create. */
interface Seen {
  /** The clientIds of the create and of the payment. */
  invoiceKey: string;
  paymentKey: string;
  invoiceId?: string;
  released?: boolean;
  paymentId?: string;
}

async function writer(
  s: Session,
  contactId: string,
  name: string,
  seen: Map<string, Seen>,
  stop: () => boolean,
) {
  for (let i = 0; !stop(); i++) {
    const key = `${name}-${i}`;
    seen.set(key, { invoiceKey: crypto.randomUUID(), paymentKey: crypto.randomUUID() });
    try {
      const inv = await api(s, 'POST', '/api/invoices', invoiceBody(contactId, seen.get(key)!.invoiceKey));
      if (inv.status !== 201) throw new Error(`create answered ${inv.status} ${JSON.stringify(inv.body)}`);
      seen.get(key)!.invoiceId = inv.body.id;
      const rel = await api(s, 'POST', `/api/invoices/${inv.body.id}/release`);
      if (rel.status !== 200) throw new Error(`release answered ${rel.status}`);
      seen.get(key)!.released = true;
      const pay = await api(
        s,
        'POST',
        `/api/invoices/${inv.body.id}/payments`,
        paymentBody(seen.get(key)!.paymentKey),
      );
      if (pay.status !== 201) throw new Error(`payment answered ${pay.status}`);
      seen.get(key)!.paymentId = pay.body.id;
    } catch (err) {
      // The connection dropped (the kill): what this client saw answered is recorded.
      // Anything else (a refusal, a 5xx before the kill) is a failure of the test.
      if (!stop()) unexpected.push(`${key}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
  }
}

describe('kill -9 during a stream of writes', () => {
  test('every write answered 2xx is there exactly once after the restart; nothing half-written; the ledger balances', async () => {
    running = await startMain(env);
    const url = running.url;
    const reg = await fetch(`${url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tenantName: 'Crash Traders',
        name: 'Thandi',
        email: `crash.${Date.now()}@example.co.za`,
        password: sha256('Correct horse battery staple'),
        companyName: 'Crash Traders (Pty) Ltd',
      }),
    });
    assert.equal(reg.status, 201, await reg.clone().text());
    const r = (await reg.json()) as Json;
    const s: Session = { url, token: r.accessToken, companyId: r.companyId };
    const contact = await api(s, 'POST', '/api/contacts', { name: 'Bheki Stores', contactType: 'CUSTOMER' });
    assert.equal(contact.status, 201, JSON.stringify(contact.body));

    const seen = new Map<string, Seen>();
    let killed = false;
    const writers = [0, 1, 2, 3].map((w) => writer(s, contact.body.id, `w${w}`, seen, () => killed));
    // Let the stream run until a fair number of documents were paid, then kill it mid-write.
    const deadline = Date.now() + 30_000;
    while ([...seen.values()].filter((v) => v.paymentId).length < 12 && Date.now() < deadline)
      await new Promise((res) => setTimeout(res, 50));
    running.child.kill('SIGKILL');
    killed = true;
    const exit = await running.stop();
    running = undefined;
    assert.equal(exit.signal, 'SIGKILL');
    await Promise.all(writers);
    assert.deepEqual(unexpected, [], 'every write before the kill succeeded');
    const answered = [...seen.values()].filter((v) => v.invoiceId);
    assert.ok(answered.length >= 12, `only ${answered.length} invoices were answered before the kill`);

    running = await startMain(env);
    const t: Session = { ...s, url: running.url };

    // Every create sent again with its clientId: an answered one replays the same record (200);
    // one the kill cut off is either replayed (it had committed) or made now (201): never twice.
    for (const [key, v] of seen) {
      const again = await api(t, 'POST', '/api/invoices', invoiceBody(contact.body.id, v.invoiceKey));
      assert.ok([200, 201].includes(again.status), `${key}: ${again.status} ${JSON.stringify(again.body)}`);
      if (v.invoiceId) {
        assert.equal(again.status, 200, `${key} was answered 201 before the kill: it must replay`);
        assert.equal(again.body.id, v.invoiceId);
      }
      v.invoiceId = again.body.id;
      if (v.released) assert.notEqual(again.body.status, 'draft', `${key} was released before the kill`);
      if (v.paymentId) {
        const replay = await api(
          t,
          'POST',
          `/api/invoices/${v.invoiceId}/payments`,
          paymentBody(v.paymentKey),
        );
        assert.equal(replay.status, 200, `${key}'s payment was answered 201 before the kill: it must replay`);
        assert.equal(replay.body.id, v.paymentId);
        const payments = await api(t, 'GET', `/api/invoices/${v.invoiceId}/payments`);
        assert.deepEqual(
          payments.body.map((p: { id: string }) => p.id),
          [v.paymentId],
          `${key}: one payment, exactly once`,
        );
      }
    }

    // Exactly one document per clientId: the list holds as many as were attempted.
    const list = await api(t, 'GET', '/api/invoices?limit=200');
    assert.equal(list.status, 200);
    const ids = new Set([...seen.values()].map((v) => v.invoiceId));
    assert.equal(list.body.total, ids.size, 'one document per clientId, none twice');
    for (const doc of list.body.items as Json[]) {
      assert.ok(ids.has(doc.id));
      // Nothing half-written: a released document has its entry; a paid one its payment's.
      if (doc.status !== 'draft') assert.ok(doc.entryId, `${doc.number} is released without an entry`);
      else assert.equal(doc.entryId, null);
    }

    // The documents agree with the ledger: debtors control (1100) at the end of the month is the
    // sum of what each released document says is still due (100 each, 0 once paid; a draft posts
    // nothing).
    const due =
      (list.body.items as Json[])
        .filter((d) => d.status !== 'draft')
        .reduce((n, d) => n + Math.round(d.amountDue * 100), 0) / 100;
    const tb = await api(t, 'GET', '/api/reports/trial-balance?asOf=2026-11-30');
    assert.equal(tb.status, 200, JSON.stringify(tb.body));
    assert.equal(tb.body.balanced, true);
    assert.equal(tb.body.totals.debit, tb.body.totals.credit);
    const debtors = (tb.body.accounts as Json[]).find((a) => a.code === '1100');
    const debtorsBalance = debtors ? Math.round((debtors.debit - debtors.credit) * 100) / 100 : 0;
    assert.equal(debtorsBalance, due, 'debtors control equals what the documents say is due');

    const exit2 = await running.stop();
    running = undefined;
    assert.equal(exit2.code, 0, exit2.stderr);
  });
});
