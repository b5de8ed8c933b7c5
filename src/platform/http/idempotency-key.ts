// Idempotency-Key on every authenticated POST that creates (a route that may answer 201),
// besides the clientId some bodies take: a caller that did not hear the answer sends the same
// request with the same key again and gets the first answer, not a second record.
//
// The key is claimed in the create's own transaction, before its handler, by inserting its row
// (migrations/0019_idempotency_keys.sql); the handler's status and output are stored in the
// same transaction. So:
//   * a failed create stores nothing (it rolls back with the row), and the key stays free;
//   * a concurrent second request with the key waits on the first's uncommitted row (the
//     primary key), then finds the stored answer, or, if the first rolled back, claims it;
//   * the same key with the same request (method, path with its ids, body, company) answers the
//     stored status and body with Idempotent-Replayed: true; with another request, a 422
//     IDEMPOTENCY_KEY_REUSED naming the key;
//   * a key's row counts for 24 hours of the service's clock; an older one is replaced by the
//     next request with the key, and the daily purge (purgeIdempotencyKeys) deletes it.
// A replay writes nothing, so it has no audit entry (wasReplayed).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AnyRoute } from './catalogue.ts';
import type { AppDeps } from './context.ts';
import { badRequest, HttpError } from './problem.ts';
import { type AroundHandler, filledPath } from './record-routes.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key answers with its stored response. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

const KEY = /^[\x20-\x7e]{1,255}$/;

/** Whether the route takes Idempotency-Key: an authenticated POST that may answer 201. */
export function idempotencyApplies(route: AnyRoute): boolean {
  return route.method === 'POST' && route.auth !== 'none' && route.response[201] !== undefined;
}

function keyOf(headers: FastifyRequest['headers']): string | undefined {
  const raw = headers['idempotency-key'];
  return Array.isArray(raw) ? raw.join(', ') : raw;
}

/** onRequest: a key that is not 1–255 printable ASCII characters is a 400 naming the header. */
export async function checkIdempotencyKey(request: FastifyRequest): Promise<void> {
  const key = keyOf(request.headers);
  if (key !== undefined && !KEY.test(key)) {
    throw badRequest(IDEMPOTENCY_KEY_HEADER, 'must be 1 to 255 printable ASCII characters');
  }
}

const replayed = new WeakSet<FastifyReply>();

/** The answer is a stored one: nothing was written (the catalogue skips the audit entry). */
export function wasReplayed(reply: FastifyReply): boolean {
  return replayed.has(reply);
}

/** JSON with object keys sorted at every depth: equal values, equal text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** The request a key stands for: method, path with its ids, body, and the company it acts in. */
export function requestHash(
  method: string,
  path: string,
  body: unknown,
  companyId: string | undefined,
): string {
  return createHash('sha256')
    .update(canonicalJson([method, path.toLowerCase(), body ?? null, companyId ?? null]))
    .digest('hex');
}

interface StoredKey {
  request_hash: string;
  status: number | null;
  response: unknown;
}

/** The in-transaction part: claim the key or answer what it stored. */
export function idempotencyGuard(route: AnyRoute): AroundHandler {
  return async (input, ctx, next) => {
    const key = keyOf(input.headers);
    if (key === undefined) return next();
    const params = input.params as Record<string, unknown>;
    const hash = requestHash(route.method, filledPath(route.path, params), input.body, ctx.companyId);
    const now = ctx.deps.now();
    const expired = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
    // Inserted, or an expired row taken over: the key is this request's. A live row (committed,
    // or another transaction's, which this waits for) is left as it is and nothing returns.
    const claimed = await sql<{ claimed: number }>`
      insert into idempotency_keys as k (tenant_id, key, method, route, request_hash, created_at)
      values (${ctx.tenantId}, ${key}, ${route.method}, ${route.path}, ${hash}, ${now})
      on conflict (tenant_id, key) do update
         set method = excluded.method, route = excluded.route, request_hash = excluded.request_hash,
             status = null, response = null, created_at = excluded.created_at
       where k.created_at <= ${expired}
      returning 1 as claimed`.execute(ctx.db);
    if (claimed.rows.length) {
      const out = await next();
      await sql`
        update idempotency_keys set status = ${ctx.reply.statusCode}, response = ${canonicalJson(out)}::jsonb
         where tenant_id = ${ctx.tenantId} and key = ${key}`.execute(ctx.db);
      return out;
    }
    const stored = (
      await sql<StoredKey>`
        select request_hash, status, response from idempotency_keys
         where tenant_id = ${ctx.tenantId} and key = ${key}`.execute(ctx.db)
    ).rows[0];
    // Committed rows always hold their answer: the claim and the answer commit together.
    if (!stored || stored.status === null) throw new Error(`Idempotency-Key row without an answer: ${key}`);
    if (stored.request_hash !== hash) {
      throw new HttpError(
        422,
        `${IDEMPOTENCY_KEY_HEADER}: "${key}" was used in the last 24 hours for a different request (another route, ids, body or company); use a new key for a new request`,
        { code: 'IDEMPOTENCY_KEY_REUSED', field: IDEMPOTENCY_KEY_HEADER },
      );
    }
    replayed.add(ctx.reply);
    ctx.reply.code(stored.status);
    ctx.reply.header(REPLAYED_HEADER, 'true');
    return stored.response;
  };
}

export const IDEMPOTENCY_PURGE_QUEUE = 'idempotency-keys-purge';
/** Daily, at 03:17 UTC (off the hour, when the service is quiet). */
export const IDEMPOTENCY_PURGE_CRON = '17 3 * * *';

/**
 * The daily purge: deletes every tenant's keys older than 24 hours. It runs in the job worker
 * as the login role (requests' bp_app has no DELETE). The table's row-level security binds the
 * login role too; its purge policies show it the rows older than the cutoff set here, for this
 * transaction only. Answers how many rows went.
 */
export function purgeIdempotencyKeys(deps: Pick<AppDeps, 'database' | 'now'>) {
  return async (): Promise<number> => {
    const cutoff = new Date(deps.now().getTime() - IDEMPOTENCY_KEY_TTL_MS);
    return deps.database.db.transaction().execute(async (tx) => {
      await sql`select set_config('app.idempotency_purge_before', ${cutoff.toISOString()}, true)`.execute(tx);
      const gone = await sql`delete from idempotency_keys where created_at < ${cutoff}`.execute(tx);
      return Number(gone.numAffectedRows ?? 0);
    });
  };
}
