// One attempt of a webhook delivery, run by the job worker. It signs the envelope, posts it
// through the SSRF-safe client and records the attempt; then the delivery succeeds, waits
// for its next attempt (the job is retried on the spec's schedule), or fails: after the
// eighth attempt or at once on a 410. Five failed events in a row switch the webhook off and
// e-mail everyone who may manage webhooks.
import type { Kysely } from 'kysely';
import { permissionsOfRole } from '../auth/principal.ts';
import type { DB } from '../db/schema.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';
import type { JobContext } from '../jobs/jobs.ts';
import { sendMail } from '../mail/mailer.ts';
import type { DeliverJob } from './deliveries.ts';
import { signDelivery } from './signing.ts';
import { type DeliveryResult, postWebhook } from './webhook-client.ts';

/** Seconds before each retry: two attempts at once, then 1 min, 5 min, 30 min, 2 h, 6 h, 12 h. */
export const RETRY_SCHEDULE = [0, 60, 300, 1800, 7200, 21600, 43200];
/** Eight attempts in all. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE.length + 1;
/** Failed events in a row that switch a webhook off. */
export const FAILURES_TO_SWITCH_OFF = 5;

const USER_AGENT = 'BusinessPlatform-Webhooks/1';

/** Why an attempt did not count as delivered, for the log and the thrown retry. */
class AttemptFailed extends Error {}

type Outcome = 'succeeded' | 'retry' | 'failed';

function outcomeOf(result: DeliveryResult, attemptInCycle: number): Outcome {
  if (result.ok) return 'succeeded';
  if (result.status === 410) return 'failed'; // the receiver says the endpoint is gone for good
  return attemptInCycle >= MAX_ATTEMPTS ? 'failed' : 'retry';
}

async function loadAttempt(db: Kysely<DB>, job: DeliverJob) {
  return withTenant(db, job.tenantId, (tx) =>
    tx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', (j) =>
        j.onRef('w.tenant_id', '=', 'd.tenant_id').onRef('w.id', '=', 'd.webhook_id'),
      )
      .innerJoin('events as e', (j) =>
        j.onRef('e.tenant_id', '=', 'd.tenant_id').onRef('e.id', '=', 'd.event_id'),
      )
      .leftJoin('api_keys as k', (j) =>
        j.onRef('k.tenant_id', '=', 'w.tenant_id').onRef('k.id', '=', 'w.created_by_key_id'),
      )
      .select([
        'd.id',
        'd.status',
        'd.attempts',
        'd.webhook_id',
        'w.url',
        'w.secret',
        'w.enabled',
        'w.deleted_at',
        'w.created_by_key_id',
        'k.revoked_at as key_revoked_at',
        'e.id as event_id',
        'e.type',
        'e.company_id',
        'e.data',
        'e.created_at as event_created_at',
      ])
      .where('d.tenant_id', '=', job.tenantId)
      .where('d.id', '=', job.deliveryId)
      .executeTakeFirst(),
  );
}

/** The job handler of DELIVER_QUEUE. */
export function deliverAttempt(deps: AppDeps) {
  return async (job: JobContext<DeliverJob>): Promise<void> => {
    const d = await loadAttempt(deps.database.db, job.data);
    if (d?.status !== 'pending') return; // gone, finished meanwhile, or a stale job
    const tenantId = job.data.tenantId;
    const live = d.enabled && !d.deleted_at && !(d.created_by_key_id && d.key_revoked_at);
    if (!live) {
      await withTenant(deps.database.db, tenantId, (tx) =>
        finish(tx, tenantId, d.id, 'cancelled', deps.now()),
      );
      return;
    }
    const body = JSON.stringify({
      id: d.event_id,
      type: d.type,
      createdAt: d.event_created_at.toISOString(),
      companyId: d.company_id,
      data: d.data,
    });
    const attemptedAt = deps.now();
    const result = await postWebhook(
      d.url,
      body,
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...signDelivery(d.secret, d.event_id, attemptedAt, body),
      },
      {
        allowPrivate: deps.config.webhookAllowPrivateTargets,
        ...(deps.resolveHost ? { resolve: deps.resolveHost } : {}),
      },
    );
    const outcome = outcomeOf(result, job.attempt);
    await withTenant(deps.database.db, tenantId, (tx) =>
      record(deps, tx, tenantId, { ...d, attempt: d.attempts + 1, attemptedAt }, result, outcome),
    );
    if (outcome === 'retry') {
      throw new AttemptFailed(
        `webhook delivery ${d.id} attempt ${job.attempt} failed: ${result.status ?? result.error ?? 'no answer'}`,
      );
    }
  };
}

async function record(
  deps: AppDeps,
  tx: Tx,
  tenantId: string,
  d: { id: string; webhook_id: string; event_id: string; attempt: number; attemptedAt: Date },
  result: DeliveryResult,
  outcome: Outcome,
): Promise<void> {
  await tx
    .insertInto('webhook_attempts')
    .values({
      tenant_id: tenantId,
      id: crypto.randomUUID(),
      delivery_id: d.id,
      webhook_id: d.webhook_id,
      event_id: d.event_id,
      attempt: d.attempt,
      attempted_at: d.attemptedAt,
      duration_ms: Math.round(result.durationMs),
      response_status: result.status,
      error: result.error ?? null,
      response_excerpt: result.bodyExcerpt || null,
    })
    .execute();
  await tx
    .updateTable('webhook_deliveries')
    .set({
      attempts: d.attempt,
      last_response_status: result.status,
      last_error: result.error ?? null,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', d.id)
    .execute();
  if (outcome === 'retry') return;
  await finish(tx, tenantId, d.id, outcome, deps.now());
  if (outcome === 'succeeded') {
    await tx
      .updateTable('webhooks')
      .set({ consecutive_failures: 0 })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', d.webhook_id)
      .execute();
    return;
  }
  const hook = await tx
    .updateTable('webhooks')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', d.webhook_id)
    .returning(['consecutive_failures', 'enabled', 'url'])
    .executeTakeFirstOrThrow();
  if (hook.enabled && hook.consecutive_failures >= FAILURES_TO_SWITCH_OFF) {
    await switchOff(deps, tx, tenantId, d.webhook_id, hook.url);
  }
}

async function finish(
  tx: Tx,
  tenantId: string,
  id: string,
  status: 'succeeded' | 'failed' | 'cancelled',
  now: Date,
) {
  await tx
    .updateTable('webhook_deliveries')
    .set({ status, finished_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

/**
 * Switches a failing webhook off and e-mails everyone who may manage webhooks; the e-mails are
 * queued in the same transaction, so they go exactly when the switch-off commits.
 */
async function switchOff(
  deps: AppDeps,
  tx: Tx,
  tenantId: string,
  webhookId: string,
  url: string,
): Promise<void> {
  await tx
    .updateTable('webhooks')
    .set({ enabled: false, disabled_reason: 'failing', updated_at: deps.now() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', webhookId)
    .execute();
  const people = await tx
    .selectFrom('users as u')
    .leftJoin('roles as r', (j) =>
      j
        .onRef('r.tenant_id', '=', 'u.tenant_id')
        .on((eb) => eb(eb.cast('r.id', 'text'), '=', eb.ref('u.role'))),
    )
    .select(['u.email', 'u.role', 'r.permissions'])
    .where('u.tenant_id', '=', tenantId)
    .where('u.active', '=', true)
    .execute();
  const managers = people.filter((p) =>
    permissionsOfRole(p.role, p.permissions ?? []).allows('admin', 'manage'),
  );
  for (const person of managers) {
    await sendMail(
      { db: tx, tenantId, deps },
      {
        to: person.email,
        kind: 'webhook-switched-off',
        subject: 'A webhook was switched off after five failed events',
        text:
          `The webhook to ${url} failed to take ${FAILURES_TO_SWITCH_OFF} events in a row, each after every retry, ` +
          'so it has been switched off. No further events are sent to it.\n\n' +
          `Check the receiver, then switch it back on: PATCH /api/webhooks/${webhookId} with {"enabled": true}. ` +
          `Its attempts are listed at GET /api/webhooks/${webhookId}/deliveries.`,
      },
    );
  }
}
