// Idempotency-Key through the real catalogue (contacts, invoices): the stored answer replayed,
// a different request refused, concurrent duplicates making one record, a key past 24 hours
// counting as new, a bad key refused, a failed create storing nothing, and the daily purge.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { catalogue } from '../../catalogue.ts';
import { type Sales, salesSetup } from '../../modules/invoices/invoices.factories.ts';
import { withTenant } from '../db/tenant.ts';
import { JOB_SCHEMA } from '../jobs/grants.ts';
import {
  IDEMPOTENCY_PURGE_CRON,
  IDEMPOTENCY_PURGE_QUEUE,
  idempotencyApplies,
  purgeIdempotencyKeys,
  REPLAYED_HEADER,
} from './idempotency-key.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app);
  api = as(t.app, a.token);
});
after(() => t.close());

const HOUR = 60 * 60 * 1000;
const replayed = REPLAYED_HEADER.toLowerCase();

function postContact(key: string | undefined, body: object, call = api) {
  return call({
    method: 'POST',
    url: '/api/contacts',
    headers: key === undefined ? {} : { 'idempotency-key': key },
    payload: body,
  });
}

/**
 * Runs `fn` with the app's clock set back `hoursAgo` hours, then back to real time. (The clock
 * starts in the past, not the test in the future: access tokens are signed in real time, and
 * one checked 25 hours ahead would have expired.)
 */
async function hoursAgo<T>(hours: number, fn: () => Promise<T>): Promise<T> {
  t.clock.set(new Date(Date.now() - hours * HOUR));
  try {
    return await fn();
  } finally {
    t.clock.set(new Date());
  }
}

async function contactsNamed(name: string, call = api): Promise<number> {
  const res = await call({ method: 'GET', url: `/api/contacts?q=${encodeURIComponent(name)}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().total;
}

describe('Idempotency-Key', () => {
  test('the same key and request answers the stored status and body, replayed; one record, one audit entry', async () => {
    const key = `contact-${crypto.randomUUID()}`;
    const body = { name: 'Refilwe Pharmacy', email: 'orders@refilwe.example.com' };
    const first = await postContact(key, body);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers[replayed], undefined);

    const second = await postContact(key, body);
    assert.equal(second.statusCode, 201, second.body);
    assert.equal(second.headers[replayed], 'true');
    assert.deepEqual(second.json(), first.json());
    assert.equal(second.headers.location, first.headers.location);
    assert.equal(await contactsNamed('Refilwe Pharmacy'), 1);
    const audited = await withTenant(t.database.db, a.tenantId, async (tx) => {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from audit_log where resource_id = ${first.json().id}`.execute(tx);
      return r.rows[0]!.n;
    });
    assert.equal(audited, 1, 'the replay wrote nothing, so it has no audit entry');
  });

  test('an invoice replayed: the same number, one document', async () => {
    const s: Sales = await salesSetup(t, a, { vatRegistered: false });
    const key = `invoice-${crypto.randomUUID()}`;
    const body = {
      contactId: s.customerId,
      documentType: 'invoice',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines: [{ description: 'Site visit', quantity: 1, unitPrice: 850 }],
    };
    const post = () =>
      s.api({ method: 'POST', url: '/api/invoices', headers: { 'idempotency-key': key }, payload: body });
    const before = (await s.api({ method: 'GET', url: '/api/invoices' })).json().total;
    const first = await post();
    assert.equal(first.statusCode, 201, first.body);
    const second = await post();
    assert.equal(second.statusCode, 201);
    assert.equal(second.headers[replayed], 'true');
    assert.deepEqual(second.json(), first.json());
    assert.equal((await s.api({ method: 'GET', url: '/api/invoices' })).json().total, before + 1);
  });

  test('a clientId replay under the same key answers the first 201, not a 200', async () => {
    const key = crypto.randomUUID();
    const body = { clientId: crypto.randomUUID(), name: 'Palesa Printers' };
    assert.equal((await postContact(key, body)).statusCode, 201);
    const again = await postContact(key, body);
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers[replayed], 'true');
  });

  test('the same key with another body, or on another route, is a 422 IDEMPOTENCY_KEY_REUSED naming the key', async () => {
    const key = `reused-${crypto.randomUUID()}`;
    assert.equal((await postContact(key, { name: 'Mandla Meats' })).statusCode, 201);
    const other = await postContact(key, { name: 'Mandla Meats (Pty) Ltd' });
    const body = assertProblem(other, 422, 'another body');
    assert.equal(body.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(body.field, 'Idempotency-Key');
    assert.match(String(body.detail), new RegExp(key));
    assert.equal(await contactsNamed('Mandla Meats (Pty) Ltd'), 0, 'nothing created');

    const elsewhere = await api({
      method: 'POST',
      url: '/api/roles',
      headers: { 'idempotency-key': key },
      payload: { name: 'Clerks', permissions: ['contacts:read'] },
    });
    assert.equal(assertProblem(elsewhere, 422, 'another route').code, 'IDEMPOTENCY_KEY_REUSED');
  });

  test('concurrent duplicates create one record, and every answer is its', async () => {
    const key = `race-${crypto.randomUUID()}`;
    const body = { name: 'Duma Distributors' };
    const answers = await Promise.all([1, 2, 3, 4].map(() => postContact(key, body)));
    for (const res of answers) assert.equal(res.statusCode, 201, res.body);
    assert.equal(new Set(answers.map((r) => r.json().id)).size, 1);
    assert.equal(answers.filter((r) => r.headers[replayed] === 'true').length, 3);
    assert.equal(await contactsNamed('Duma Distributors'), 1);
  });

  test('a key older than 24 hours is a new request', async () => {
    const key = `old-${crypto.randomUUID()}`;
    const body = { name: 'Khanyisile Catering' };
    const first = await hoursAgo(25, () => postContact(key, body));
    assert.equal(first.statusCode, 201);
    const within = await hoursAgo(2, () => postContact(key, body));
    assert.equal(within.headers[replayed], 'true', 'still kept 23 hours later');
    const after = await postContact(key, body);
    assert.equal(after.statusCode, 201, after.body);
    assert.equal(after.headers[replayed], undefined, '25 hours later it is a new request');
    assert.notEqual(after.json().id, first.json().id);
    assert.equal(await contactsNamed('Khanyisile Catering'), 2);
    // The new answer is the one kept now.
    const replay = await postContact(key, body);
    assert.equal(replay.json().id, after.json().id);
  });

  test('keys are per tenant', async () => {
    const b = await register(t.app);
    const other = as(t.app, b.token);
    const key = `shared-${crypto.randomUUID()}`;
    const mine = await postContact(key, { name: 'Lindiwe Linen' });
    const theirs = await postContact(key, { name: 'Lindiwe Linen' }, other);
    assert.equal(theirs.statusCode, 201);
    assert.equal(theirs.headers[replayed], undefined);
    assert.notEqual(theirs.json().id, mine.json().id);
  });

  test('a create that fails stores nothing: the key is free for the next request', async () => {
    const key = `failed-${crypto.randomUUID()}`;
    const s: Sales = await salesSetup(t, a, { vatRegistered: false });
    const failed = await s.api({
      method: 'POST',
      url: '/api/invoices',
      headers: { 'idempotency-key': key },
      payload: {
        contactId: crypto.randomUUID(),
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      },
    });
    assert.ok(failed.statusCode >= 400, failed.body);
    const next = await postContact(key, { name: 'Vusi Vending' });
    assert.equal(next.statusCode, 201, next.body);
    assert.equal(next.headers[replayed], undefined);
  });

  test('a key not of 1 to 255 printable ASCII characters is a 400 naming Idempotency-Key', async () => {
    for (const bad of ['', 'x'.repeat(256), 'tab\there']) {
      const res = await postContact(bad, { name: 'Never Created' });
      const body = assertProblem(res, 400, JSON.stringify(bad));
      assert.equal(body.field, 'Idempotency-Key');
    }
    assert.equal((await postContact('x'.repeat(255), { name: 'Longest Key' })).statusCode, 201);
    assert.equal(await contactsNamed('Never Created'), 0);
  });
});

describe('keeping keys', () => {
  test('the daily purge deletes keys older than 24 hours, every tenant’s, and keeps the rest', async () => {
    const count = async (tenantId: string) =>
      withTenant(t.database.db, tenantId, async (tx) => {
        const r = await sql<{ n: number }>`select count(*)::int as n from idempotency_keys`.execute(tx);
        return r.rows[0]!.n;
      });
    const c = await register(t.app);
    const d = await register(t.app);
    await hoursAgo(25, async () => {
      await postContact(`purge-${crypto.randomUUID()}`, { name: 'Old C' }, as(t.app, c.token));
      await postContact(`purge-${crypto.randomUUID()}`, { name: 'Old D' }, as(t.app, d.token));
    });
    const fresh = await postContact(`fresh-${crypto.randomUUID()}`, { name: 'Fresh C' }, as(t.app, c.token));
    assert.equal(fresh.statusCode, 201, fresh.body);
    assert.equal(await count(c.tenantId), 2);

    const gone = await purgeIdempotencyKeys(t.deps)();
    assert.ok(gone >= 2, `purged ${gone}`);
    assert.equal(await count(c.tenantId), 1, 'the fresh key stays');
    assert.equal(await count(d.tenantId), 0);
    const scheduled = await sql<{ cron: string }>`
      select cron from ${sql.raw(JOB_SCHEMA)}.schedule where name = ${IDEMPOTENCY_PURGE_QUEUE}`.execute(
      t.database.db,
    );
    assert.deepEqual(scheduled.rows, [{ cron: IDEMPOTENCY_PURGE_CRON }], 'scheduled daily');
  });

  test('idempotencyApplies: authenticated POSTs that may answer 201', () => {
    const of = (method: string, path: string) =>
      idempotencyApplies(catalogue.find((r) => r.method === method && r.path === path)!);
    assert.equal(of('POST', '/api/contacts'), true);
    assert.equal(of('POST', '/api/invoices/{id}/payments'), true);
    assert.equal(of('POST', '/api/invoices/{id}/release'), false);
    assert.equal(of('POST', '/auth/register'), false);
    assert.equal(of('PATCH', '/api/contacts/{id}'), false);
  });
});
