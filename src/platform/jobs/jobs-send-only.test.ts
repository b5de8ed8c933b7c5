// A process that only sends jobs (JOBS_WORKER=0) on the embedded database: sending inside a
// request's transaction must answer, although no worker ever read the queue. (pg-boss looks
// a queue up outside the caller's transaction when it is not cached yet, which on PGlite
// waited for the connection the request held.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

test('sendInTx answers in a send-only process, and the job waits in the queue', async () => {
  const a = await register(t.app, { plan: 'business' });
  const hook = await as(
    t.app,
    a.token,
  )({
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: 'https://hooks.example.com/x', eventTypes: ['invoice.paid'] },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  const sent = await as(t.app, a.token)({ method: 'POST', url: `/api/webhooks/${hook.json().id}/test` });
  assert.equal(sent.statusCode, 202, sent.body);
  const counts = await t.deps.jobs.counts('webhook-deliver');
  assert.equal(counts.created, 1);
  const delivery = await withTenant(t.database.db, a.tenantId, (tx) =>
    tx.selectFrom('webhook_deliveries').select('status').executeTakeFirstOrThrow(),
  );
  assert.equal(delivery.status, 'pending');
});
