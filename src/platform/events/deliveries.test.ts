// Webhook delivery end to end: events emitted in a tenant transaction reach a real receiver
// on a listening port, signed and verified with the standardwebhooks library; retries follow
// the spec's schedule on a moved clock; a 410 stops at once; five failed events switch the
// webhook off and e-mail its managers; redelivery keeps the webhook-id; the test event; a
// revoked key's webhook stays silent.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestClock } from 'pg-boss';
import { Webhook } from 'standardwebhooks';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from '../../../test/support/http-receiver.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { keyTokenFor } from '../auth/api-keys.factories.ts';
import { addMember } from '../auth/users.factories.ts';
import { withTenant } from '../db/tenant.ts';
import { RETRY_SCHEDULE } from './deliver.ts';
import { DELIVER_QUEUE } from './deliveries.ts';
import { emitUnchecked } from './outbox.ts';

let t: TestApp;
let clock: TestClock;
let receiver: Receiver;
/** What the receiver answers next; tests set it. */
let answer: (req: ReceivedRequest, res: ServerResponse) => void;

before(async () => {
  clock = new TestClock(new Date('2026-11-22T08:00:00Z'));
  // Receivers on this machine's loopback: the development and test setting.
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true }, jobsClock: clock });
  receiver = await startReceiver((req, res) => answer(req, res));
});
after(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  answer = (_req, res) => res.writeHead(204).end();
});

/** Jumps the clock (firing each passed timer once, as after a sleep) and lets the worker poll. */
async function jump(ms: number) {
  await clock.setTime(clock.now() + ms);
  await clock.tick(2500);
}

/**
 * Waits until no attempt is running: the receiver's answer has been recorded and the job is
 * back in the queue with its next run time. A jump before that would move the clock under the
 * attempt still finishing, and its retry would be timed from after the jump.
 */
async function attemptsSettled() {
  await eventually(
    'the attempt to finish',
    async () => (await t.deps.jobs.counts(DELIVER_QUEUE)).active === 0,
  );
}

const hookUrl = (path: string) => `http://127.0.0.1:${receiver.port}${path}`;

async function eventually<T>(what: string, fn: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v) return v;
    await clock.tick(250);
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function business(): Promise<Registered & { secret: string; webhookId: string; path: string }> {
  const owner = await register(t.app, { plan: 'business' });
  const path = `/hook/${owner.tenantId}`;
  const res = await as(
    t.app,
    owner.token,
  )({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: hookUrl(path), eventTypes: ['invoice.paid'] },
  });
  assert.equal(res.statusCode, 201, res.body);
  return { ...owner, secret: res.json().secret, webhookId: res.json().id, path };
}

function emitPaid(b: Registered, data: object = { number: 'INV-0001', total: '1149.99' }) {
  return withTenant(t.database.db, b.tenantId, (tx) =>
    emitUnchecked(
      { db: tx, deps: t.deps, tenantId: b.tenantId, companyId: b.companyId },
      'invoice.paid',
      data,
    ),
  );
}

const arrived = (path: string) => receiver.received.filter((r) => r.url === path);

interface DeliveryBody {
  id: string;
  eventId: string;
  status: string;
  attempts: Array<{ attempt: number; responseStatus: number | null }>;
}

async function deliveries(b: Registered & { webhookId: string }) {
  const r = await as(t.app, b.token)({ method: 'GET', url: `/api/webhooks/${b.webhookId}/deliveries` });
  assert.equal(r.statusCode, 200, r.body);
  return r.json() as { total: number; items: DeliveryBody[] };
}

describe('delivery', () => {
  test('arrives signed; standardwebhooks verifies it; the envelope is the spec’s', async () => {
    const b = await business();
    const event = await emitPaid(b);
    const [req] = await eventually(
      'the delivery',
      async () => arrived(b.path).length === 1 && arrived(b.path),
    );
    const verified = new Webhook(b.secret).verify(req!.body, req!.headers as Record<string, string>);
    assert.deepEqual(Object.keys(verified as object).sort(), [
      'companyId',
      'createdAt',
      'data',
      'id',
      'type',
    ]);
    assert.deepEqual(verified, {
      id: event.id,
      type: 'invoice.paid',
      createdAt: (verified as { createdAt: string }).createdAt,
      companyId: b.companyId,
      data: { number: 'INV-0001', total: '1149.99' },
    });
    assert.equal(req!.headers['webhook-id'], event.id);
    assert.match(String(req!.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    assert.equal(req!.headers['content-type'], 'application/json');
    const list = await eventually('the attempt recorded', async () => {
      const a = await deliveries(b);
      return a.items[0]?.status === 'succeeded' && a;
    });
    assert.equal(list.total, 1);
    assert.equal(list.items[0]!.eventId, event.id);
    assert.deepEqual(
      list.items[0]!.attempts.map((a) => [a.attempt, a.responseStatus]),
      [[1, 204]],
    );
  });

  test('retries: two at once, then 1 min, 5 min, 30 min, 2 h, 6 h, 12 h; eight in all, same webhook-id', async () => {
    const b = await business();
    answer = (_req, res) => res.writeHead(503).end('busy');
    const event = await emitPaid(b);
    await eventually('two attempts at once', async () => arrived(b.path).length >= 2);
    await attemptsSettled();
    await clock.tick(1000);
    assert.equal(arrived(b.path).length, 2, 'the third waits a minute');
    for (const [i, delay] of RETRY_SCHEDULE.slice(1).entries()) {
      const before = arrived(b.path).length;
      await jump(delay * 1000 - 5_000);
      assert.equal(arrived(b.path).length, before, `attempt ${i + 3} came early`);
      await eventually(`attempt ${i + 3}`, async () => arrived(b.path).length === before + 1);
      await attemptsSettled();
    }
    const all = arrived(b.path);
    assert.equal(all.length, 8);
    assert.ok(all.every((r) => r.headers['webhook-id'] === event.id));
    const list = await eventually('failed', async () => {
      const a = await deliveries(b);
      return a.items[0]?.status === 'failed' && a;
    });
    assert.equal(list.total, 1);
    assert.deepEqual(
      list.items[0]!.attempts.map((a) => a.attempt),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.ok(list.items[0]!.attempts.every((a) => a.responseStatus === 503));
    await jump(24 * 3600_000);
    await sleep(200);
    assert.equal(arrived(b.path).length, 8, 'nothing after the eighth');
  });

  test('a 410 stops the retries at once', async () => {
    const b = await business();
    answer = (_req, res) => res.writeHead(410).end();
    await emitPaid(b);
    await eventually('failed', async () => (await deliveries(b)).items[0]?.status === 'failed');
    await jump(3600_000);
    await sleep(200);
    assert.equal(arrived(b.path).length, 1);
  });

  test('five failed events in a row switch the webhook off and e-mail everyone who may manage webhooks', async () => {
    const b = await business();
    const admin = await addMember(t, b, 'admin');
    const viewer = await addMember(t, b, 'viewer');
    answer = (_req, res) => res.writeHead(410).end();
    for (let i = 1; i <= 5; i++) {
      await emitPaid(b, { number: `INV-${i}` });
      await eventually(`event ${i} failed`, async () => {
        const a = await deliveries(b);
        return a.total === i && a.items.every((x) => x.status === 'failed');
      });
    }
    const hook = (await as(t.app, b.token)({ method: 'GET', url: `/api/webhooks/${b.webhookId}` })).json();
    assert.deepEqual([hook.enabled, hook.disabledReason, hook.consecutiveFailures], [false, 'failing', 5]);
    const mail = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx.selectFrom('emails').selectAll().where('kind', '=', 'webhook-switched-off').execute(),
    );
    assert.deepEqual(mail.map((m) => m.to_address).sort(), [b.email, admin.email].sort());
    assert.ok(!mail.some((m) => m.to_address === viewer.email));
    // Off means off: a sixth event is not sent. Switching on is manual and starts afresh.
    await emitPaid(b, { number: 'INV-6' });
    await clock.tick(5000);
    assert.equal(arrived(b.path).length, 5);
    const on = await as(
      t.app,
      b.token,
    )({ method: 'PATCH', url: `/api/webhooks/${b.webhookId}`, payload: { enabled: true } });
    assert.equal(on.json().consecutiveFailures, 0);
  });

  test('a success resets the count of failed events', async () => {
    const b = await business();
    answer = (_req, res) => res.writeHead(410).end();
    await emitPaid(b);
    await eventually('one failure', async () => (await deliveries(b)).items[0]?.status === 'failed');
    answer = (_req, res) => res.writeHead(200).end();
    await emitPaid(b);
    await eventually('a success', async () => (await deliveries(b)).items[0]?.status === 'succeeded');
    const hook = (await as(t.app, b.token)({ method: 'GET', url: `/api/webhooks/${b.webhookId}` })).json();
    assert.equal(hook.consecutiveFailures, 0);
  });
});

describe('redelivery and the test event', () => {
  test('a finished delivery is sent again under the same webhook-id; a pending one is 409', async () => {
    const b = await business();
    const event = await emitPaid(b);
    const first = await eventually('delivered', async () => {
      const a = await deliveries(b);
      return a.items[0]?.status === 'succeeded' && a.items[0];
    });
    const redo = () =>
      as(
        t.app,
        b.token,
      )({
        method: 'POST',
        url: `/api/webhooks/${b.webhookId}/deliveries/${first.id}/redeliver`,
      });
    answer = () => {}; // hold the answer: the redelivery stays pending for a while
    const res = await redo();
    assert.equal(res.statusCode, 202, res.body);
    await eventually('redelivered', async () => arrived(b.path).length === 2);
    assertProblem(await redo(), 409);
    // Another business cannot redeliver it.
    const other = await business();
    const foreign = await as(
      t.app,
      other.token,
    )({
      method: 'POST',
      url: `/api/webhooks/${b.webhookId}/deliveries/${first.id}/redeliver`,
    });
    assertProblem(foreign, 404);
    const [one, two] = arrived(b.path);
    assert.equal(two!.headers['webhook-id'], event.id);
    assert.equal(two!.headers['webhook-id'], one!.headers['webhook-id']);
    new Webhook(b.secret).verify(two!.body, two!.headers as Record<string, string>);
  });

  test('POST /test sends a signed webhook.test to that webhook alone', async () => {
    const b = await business();
    const res = await as(t.app, b.token)({ method: 'POST', url: `/api/webhooks/${b.webhookId}/test` });
    assert.equal(res.statusCode, 202, res.body);
    const [req] = await eventually(
      'the test event',
      async () => arrived(b.path).length === 1 && arrived(b.path),
    );
    const body = new Webhook(b.secret).verify(req!.body, req!.headers as Record<string, string>) as {
      type: string;
    };
    assert.equal(body.type, 'webhook.test');
    assert.equal(req!.headers['webhook-id'], res.json().eventId);
  });

  test("a key's webhook stops when the key is revoked", async () => {
    const owner = await register(t.app, { plan: 'business' });
    const key = await keyTokenFor(t.app, owner.token, { scopes: ['admin:write', 'invoices:read'] });
    const path = `/hook/key/${owner.tenantId}`;
    const add = await as(
      t.app,
      key.token,
    )({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: hookUrl(path), eventTypes: ['invoice.paid'] },
    });
    assert.equal(add.statusCode, 201, add.body);
    await emitPaid(owner);
    await eventually('delivered while the key stands', async () => arrived(path).length === 1);
    const revoke = await as(t.app, owner.token)({ method: 'DELETE', url: `/api/api-keys/${key.id}` });
    assert.equal(revoke.statusCode, 204);
    await emitPaid(owner);
    await clock.tick(5000);
    await sleep(200);
    assert.equal(arrived(path).length, 1);
  });
});
