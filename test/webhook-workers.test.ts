// Two server processes, each running the job worker, on one PostgreSQL: 1,000 webhook events
// reach a real receiver, every one verified with the standardwebhooks library, none lost and
// none delivered twice. The events are made through both processes' HTTP API (the test
// event), and either worker may deliver any of them (pg-boss claims with SKIP LOCKED).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { sha256 } from './support/app.ts';
import { emptyPgDatabase } from './support/db.ts';
import { type ReceivedRequest, startReceiver } from './support/http-receiver.ts';
import { call, freePort, type RunningServer, startMain } from './support/server.ts';

const PG = process.env.DATABASE_URL;
const EVENTS = 1000;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('two worker processes deliver 1,000 events: none lost, none twice, all signed', {
  skip: PG
    ? false
    : 'needs DATABASE_URL: two processes share one PostgreSQL (the embedded database is one process)',
}, async () => {
  const database = await emptyPgDatabase(PG!);
  cleanups.push(database.drop);
  const received: ReceivedRequest[] = [];
  const receiver = await startReceiver((req, res) => {
    received.push(req);
    res.writeHead(204).end();
  });
  cleanups.push(receiver.close);
  const env = {
    DATABASE_URL: database.url,
    JWT_SECRET: 'webhook-workers-test-secret-0123456789abcdef',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
    JOBS_WORKER: '1',
    LOG_LEVEL: 'warn',
  };
  // One after the other: the first applies the migrations to the empty database.
  const servers: RunningServer[] = [];
  for (let i = 0; i < 2; i++) {
    const server = await startMain({ ...env, PORT: String(await freePort()) });
    cleanups.push(server.stop);
    servers.push(server);
  }
  const [one, two] = servers as [RunningServer, RunningServer];
  const reg = await call(`${one.url}/auth/register`, {
    body: {
      tenantName: 'Hooks',
      name: 'Owner',
      email: 'hooks@example.co.za',
      password: sha256('Hooks password 1'),
      plan: 'business',
    },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken as string;
  // Whether a process runs jobs is configuration detail: the owner's token shows it.
  for (const s of servers) {
    const d = await call(`${s.url}/diagnostics`, { token });
    assert.deepEqual(d.body.jobs, { status: 'up', worker: true });
  }
  const hook = await call(`${two.url}/api/webhooks`, {
    token,
    body: { url: `http://127.0.0.1:${receiver.port}/hooks`, eventTypes: ['invoice.paid'] },
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const verifier = new Webhook(hook.body.secret);

  // 1,000 test events, made through both processes, twenty at a time.
  const eventIds: string[] = [];
  for (let i = 0; i < EVENTS; i += 20) {
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, k) =>
        call(`${(i + k) % 2 ? one.url : two.url}/api/webhooks/${hook.body.id}/test`, {
          token,
          method: 'POST',
        }),
      ),
    );
    for (const m of made) {
      assert.equal(m.status, 202, JSON.stringify(m.body));
      eventIds.push(m.body.eventId);
    }
  }
  assert.equal(new Set(eventIds).size, EVENTS);

  const deadline = Date.now() + 120_000;
  while (new Set(received.map((r) => r.headers['webhook-id'])).size < EVENTS) {
    assert.ok(Date.now() < deadline, `only ${received.length} of ${EVENTS} arrived in time`);
    await sleep(250);
  }
  // Anything that would deliver a second time has its chance.
  await sleep(3000);
  const ids = received.map((r) => String(r.headers['webhook-id']));
  assert.equal(received.length, EVENTS, 'none delivered twice');
  assert.deepEqual([...new Set(ids)].sort(), [...eventIds].sort(), 'every event, and only these');
  for (const r of received) {
    const body = verifier.verify(r.body, r.headers as Record<string, string>) as { type: string; id: string };
    assert.equal(body.type, 'webhook.test');
    assert.equal(body.id, r.headers['webhook-id']);
  }
  // Every delivery is recorded as succeeded, once.
  const list = await call(`${one.url}/api/webhooks/${hook.body.id}/deliveries?limit=1`, { token });
  assert.equal(list.status, 200, JSON.stringify(list.body));
  assert.equal(list.body.total, EVENTS);
});

test('a worker killed mid-delivery: the delivery is retried by another, under the same webhook-id', {
  skip: PG
    ? false
    : 'needs DATABASE_URL: the delivery outlives the process that was running it (the embedded database dies with it)',
}, async () => {
  const database = await emptyPgDatabase(PG!);
  cleanups.push(database.drop);
  // The first arrival is held unanswered (the worker is killed while it waits); later ones 204.
  let firstArrived: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    firstArrived = resolve;
  });
  const receiver = await startReceiver((_req, res) => {
    if (receiver.received.length === 1) firstArrived();
    else res.writeHead(204).end();
  });
  cleanups.push(receiver.close);
  const env = {
    DATABASE_URL: database.url,
    JWT_SECRET: 'webhook-workers-test-secret-0123456789abcdef',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
    JOBS_WORKER: '1',
    LOG_LEVEL: 'warn',
  };
  const doomed = await startMain({ ...env, PORT: String(await freePort()) });
  const reg = await call(`${doomed.url}/auth/register`, {
    body: {
      tenantName: 'Hooks',
      name: 'Owner',
      email: 'hooks.kill@example.co.za',
      password: sha256('Hooks password 1'),
      plan: 'business',
    },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const token = reg.body.accessToken as string;
  const hook = await call(`${doomed.url}/api/webhooks`, {
    token,
    body: { url: `http://127.0.0.1:${receiver.port}/hooks`, eventTypes: ['invoice.paid'] },
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const made = await call(`${doomed.url}/api/webhooks/${hook.body.id}/test`, { token, method: 'POST' });
  assert.equal(made.status, 202, JSON.stringify(made.body));

  // The worker has the delivery in hand and waits on the receiver: kill -9 it there.
  await first;
  doomed.child.kill('SIGKILL');
  assert.equal((await doomed.stop()).signal, 'SIGKILL');

  // Another process takes over: the job the dead one held expires (60 s) and is run again.
  const heir = await startMain({ ...env, PORT: String(await freePort()) });
  cleanups.push(heir.stop);
  const deadline = Date.now() + 240_000;
  while (receiver.received.length < 2) {
    assert.ok(Date.now() < deadline, 'the delivery was not retried after the kill');
    await sleep(500);
  }
  await sleep(2000);
  const [held, retried] = receiver.received as [ReceivedRequest, ReceivedRequest];
  assert.equal(receiver.received.length, 2, 'retried once, not more');
  // The same message: the receiver can tell it is a retry and drop the duplicate.
  assert.equal(retried.headers['webhook-id'], held.headers['webhook-id']);
  assert.equal(retried.headers['webhook-id'], made.body.eventId);
  assert.equal(retried.body, held.body);
  const verifier = new Webhook(hook.body.secret);
  verifier.verify(retried.body, retried.headers as Record<string, string>);
  const list = await call(`${heir.url}/api/webhooks/${hook.body.id}/deliveries`, { token });
  assert.equal(list.status, 200, JSON.stringify(list.body));
  assert.equal(list.body.items[0].status, 'succeeded', JSON.stringify(list.body.items[0]));
});
