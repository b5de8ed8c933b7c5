// The scheduled bank-feed syncs: every BANK_FEED_SYNC_CRON the job worker syncs every live
// feed that is due (next_attempt_at <= now), each in its own transaction of its tenant, so
// one tenant's failure (or slow bank) never holds or undoes another's.
//
// Finding the due feeds crosses tenants: it runs as the login role (as the idempotency purge
// does), whose forced row-level security shows it, through the bank_feeds_due policy
// (migrations/0046_bank_feeds.sql), only the live feeds due by the time set for its own
// transaction, and only their ids.
import { sql } from 'kysely';
import { withTenant } from '../../platform/db/tenant.ts';
import type { AppDeps } from '../../platform/http/context.ts';
import { syncBankFeed } from './bank-feeds.sync.ts';

export const BANK_FEED_SYNC_QUEUE = 'bank-feeds-sync';
/** Every 15 minutes (a feed's own schedule, next_attempt_at, says when it is due). */
export const BANK_FEED_SYNC_CRON = '*/15 * * * *';
/** Feeds synced per run at most (the rest are still due at the next run). */
export const BANK_FEED_SYNC_BATCH = 200;

export interface DueRunResult {
  synced: number;
  failed: number;
  /** Syncs that threw (not a failure of the bank, which is recorded on the feed). */
  errors: { tenantId: string; feedId: string; message: string }[];
}

export function runDueBankFeeds(deps: AppDeps) {
  return async (): Promise<DueRunResult> => {
    const now = deps.now();
    const due = await deps.database.db.transaction().execute(async (tx) => {
      await sql`select set_config('app.bank_feeds_due_before', ${now.toISOString()}, true)`.execute(tx);
      return tx
        .selectFrom('bank_feeds')
        .select(['tenant_id', 'id'])
        .where('status', '=', 'active')
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .limit(BANK_FEED_SYNC_BATCH)
        .execute();
    });
    const result: DueRunResult = { synced: 0, failed: 0, errors: [] };
    for (const f of due) {
      try {
        const outcome = await withTenant(deps.database.db, f.tenant_id, (tx) =>
          syncBankFeed(tx, { tenantId: f.tenant_id, deps, principal: { type: 'system' } }, f.id),
        );
        if (outcome.ok) result.synced++;
        else result.failed++;
      } catch (err) {
        result.errors.push({ tenantId: f.tenant_id, feedId: f.id, message: (err as Error).message });
      }
    }
    return result;
  };
}
