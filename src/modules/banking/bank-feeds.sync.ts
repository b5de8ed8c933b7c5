// One sync of a bank feed: the ONE function the on-demand route and the job worker call.
//
// Under the bank account's lock (one import or sync at a time per account), it asks the bank
// for every transaction from max(syncFrom, the last posted day the feed brought - OVERLAP_DAYS)
// to today, all pages, and the balance; then
//   * POSTED lines go through planIngest/writeIngest (source 'feed', feed_id set): dated by
//     their posting date, signed by type (CREDIT +, DEBIT -), so a line a statement file
//     already brought (or the overlap of the last sync) is not added twice;
//   * PENDING lines are stored pending (not counted), each once (keyed by the bank's uuid);
//   * a held pending line the bank no longer lists as pending is superseded: by the posted line
//     it became (same direction and description, even with another amount) or, when it just
//     went (an authorisation released), by nothing. The account shows the posted line once;
//   * the bank account's statement balance becomes the bank's current balance.
// A failure changes nothing but the feed's state: last_sync_status 'failed', last_error,
// consecutive_failures + 1 and next_attempt_at after a backoff (BACKOFF_MINUTES); after
// ATTENTION_AFTER failures in a row, needs_attention (retries go on). Keys the bank refuses
// (401) need attention at once and stop the automatic syncs until new keys are given (PATCH).
// A success resets all that and schedules the next sync SYNC_INTERVAL_MS later.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { addDays, dayOf } from '../../platform/dates/days.ts';
import type { Tx } from '../../platform/db/tenant.ts';
import type { AppDeps, TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { openSecret, SecretOpenError, secretKeysOf } from '../../platform/secrets/index.ts';
import { type BankFeed, type BankFeedRow, bankFeedOf } from './bank-feeds.service.ts';
import { InvestecClient, InvestecError, type InvestecTransaction } from './feeds/investec-client.ts';
import { lockBankAccount, planIngest, type StatementLine, writeIngest } from './ingest.ts';

/** Days before the last posted day fetched again: late postings land a few days back. */
export const OVERLAP_DAYS = 3;
/** A healthy feed syncs every 4 hours. */
export const SYNC_INTERVAL_MS = 4 * 60 * 60 * 1000;
/** Backoff after the 1st, 2nd, 3rd failure in a row, then the last again: 15 min, 1 h, 4 h, 12 h. */
export const BACKOFF_MINUTES = [15, 60, 240, 720] as const;
/** Failures in a row after which a person is asked to look. */
export const ATTENTION_AFTER = 3;

export function backoffMs(failures: number): number {
  return BACKOFF_MINUTES[Math.min(failures, BACKOFF_MINUTES.length) - 1]! * 60_000;
}

export interface SyncOutcome {
  ok: boolean;
  imported: number;
  duplicates: number;
  pending: number;
  superseded: number;
  fromDate: string | null;
  toDate: string | null;
  error: string | null;
  feed: BankFeed;
}

export interface SyncOrigin {
  tenantId: string;
  deps: AppDeps;
  principal: TenantCtx['principal'] | { type: 'system' };
}

/** The bank's uuid of a line, or (older payloads have none) a hash of what describes it. */
export function lineKey(t: InvestecTransaction): string {
  if (t.uuid) return t.uuid;
  const parts = [
    t.accountId,
    t.status,
    t.type,
    t.amount,
    t.description,
    t.transactionDate,
    t.postingDate,
    t.postedOrder,
    t.cardNumber,
  ];
  return `h:${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)}`;
}

const signed = (t: InvestecTransaction) =>
  money(t.amount)
    .abs()
    .times(t.type === 'DEBIT' ? -1 : 1);
const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

function toLine(t: InvestecTransaction): StatementLine {
  const pending = t.status === 'PENDING';
  const date = (pending ? (t.transactionDate ?? t.postingDate) : (t.postingDate ?? t.transactionDate)) ?? '';
  return {
    date: date.slice(0, 10),
    valueDate: t.valueDate?.slice(0, 10) || null,
    amount: signed(t).toFixed(2),
    description: t.description ?? '',
    reference: t.transactionType ?? null,
    externalId: lineKey(t),
    runningBalance: pending || t.runningBalance == null ? null : String(t.runningBalance),
    pending,
  };
}

async function failed(
  db: Tx,
  feed: BankFeedRow,
  now: Date,
  err: InvestecError,
  attentionReason = 'The bank refused the keys (revoked or changed): give new keys to resume the feed',
): Promise<void> {
  const failures = feed.consecutive_failures + 1;
  const revoked = err.kind === 'unauthorized';
  let next: Date | null = null;
  if (!revoked) {
    const wait = Math.max(backoffMs(failures), err.retryAfterMs ?? 0);
    next = new Date(now.getTime() + wait);
  }
  const attention = revoked || failures >= ATTENTION_AFTER;
  await db
    .updateTable('bank_feeds')
    .set({
      last_sync_at: now,
      last_sync_status: 'failed',
      last_error: err.message,
      consecutive_failures: failures,
      needs_attention: attention || feed.needs_attention,
      attention_reason: revoked
        ? attentionReason
        : attention
          ? `${failures} syncs in a row failed (last: ${err.message}); retrying on a backoff`
          : feed.attention_reason,
      next_attempt_at: next,
    })
    .where('tenant_id', '=', feed.tenant_id)
    .where('id', '=', feed.id)
    .execute();
}

/** Picks the posted line a vanished pending one became, or none. */
function successorOf(
  pending: { date: string; amount: string; description: string },
  posted: { t: InvestecTransaction; id: string }[],
  used: Set<string>,
): string | null {
  const sign = money(pending.amount).isNegative();
  const same = posted.filter((p) => !used.has(p.id) && signed(p.t).isNegative() === sign);
  const byDesc = same.filter((p) => norm(p.t.description ?? '') === norm(pending.description));
  const pick =
    byDesc.find((p) => (p.t.transactionDate ?? '').slice(0, 10) === pending.date) ??
    byDesc[0] ??
    same.find(
      (p) =>
        money(p.t.amount).abs().eq(money(pending.amount).abs()) &&
        (p.t.transactionDate ?? '').slice(0, 10) === pending.date,
    );
  if (!pick) return null;
  used.add(pick.id);
  return pick.id;
}

/**
 * Syncs the feed in `db` (a transaction of the feed's tenant). Answers the outcome; a failure
 * of the bank is an outcome (ok false), not an exception. 404 when it is not the tenant's.
 */
export async function syncBankFeed(db: Tx, origin: SyncOrigin, feedId: string): Promise<SyncOutcome> {
  const { tenantId, deps } = origin;
  const first = await db
    .selectFrom('bank_feeds')
    .select(['bank_account_id', 'company_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', feedId)
    .executeTakeFirstOrThrow();
  await lockBankAccount(db, tenantId, first.bank_account_id);
  const feed = await db
    .selectFrom('bank_feeds')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', feedId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (feed.status !== 'active') throw conflict('The bank feed is disconnected: connect a new one');
  const answer = async (o: Omit<SyncOutcome, 'feed'>): Promise<SyncOutcome> => ({
    ...o,
    feed: await bankFeedOf(db, tenantId, feed.company_id, feed.id),
  });
  const secrets = secretKeysOf(deps);
  const now = deps.now();
  let client: InvestecClient;
  try {
    client = new InvestecClient(deps.config.bankFeedBaseUrl, {
      clientId: openSecret(secrets, feed.client_id_sealed),
      clientSecret: openSecret(secrets, feed.client_secret_sealed),
      apiKey: openSecret(secrets, feed.api_key_sealed),
    });
  } catch (err) {
    if (!(err instanceof SecretOpenError)) throw err;
    // A SECRETS_KEY rotated without keeping the old key: the keys are lost, a person gives them again.
    const reason = 'The stored keys cannot be opened with this SECRETS_KEY: give the keys again';
    await failed(db, feed, now, new InvestecError('unauthorized', reason), reason);
    return answer({
      ok: false,
      imported: 0,
      duplicates: 0,
      pending: 0,
      superseded: 0,
      fromDate: null,
      toDate: null,
      error: reason,
    });
  }
  const last = await db
    .selectFrom('bank_transactions')
    .select((eb) => eb.fn.max('date').as('last'))
    .where('tenant_id', '=', tenantId)
    .where('feed_id', '=', feed.id)
    .where('pending', '=', false)
    .where('superseded_at', 'is', null)
    .executeTakeFirst();
  let fromDate = feed.sync_from;
  if (last?.last) {
    const back = addDays(String(last.last).slice(0, 10), -OVERLAP_DAYS);
    if (back > fromDate) fromDate = back;
  }
  // The bank's days are South African (UTC+2): ask to tomorrow (UTC) so today's lines come.
  const toDate = addDays(dayOf(now), 1);
  if (fromDate > toDate) fromDate = toDate;

  let rows: InvestecTransaction[];
  let balance: number;
  try {
    rows = await client.transactions(feed.investec_account_id, fromDate, toDate);
    balance = (await client.balance(feed.investec_account_id)).currentBalance;
  } catch (err) {
    if (!(err instanceof InvestecError)) throw err;
    await failed(db, feed, now, err);
    return answer({
      ok: false,
      imported: 0,
      duplicates: 0,
      pending: 0,
      superseded: 0,
      fromDate,
      toDate,
      error: err.message,
    });
  }

  // Oldest first, in the bank's posting order: sequences follow the statement's order.
  const usable = rows.filter((t) => Number(t.amount) !== 0 && (t.postingDate || t.transactionDate));
  const posted = usable
    .filter((t) => t.status !== 'PENDING')
    .sort(
      (a, b) => toLine(a).date.localeCompare(toLine(b).date) || (a.postedOrder ?? 0) - (b.postedOrder ?? 0),
    );
  const pendingNow = usable.filter((t) => t.status === 'PENDING');
  const heldPending = await db
    .selectFrom('bank_transactions')
    .select(['id', 'external_id', 'date', 'amount', 'description'])
    .where('tenant_id', '=', tenantId)
    .where('feed_id', '=', feed.id)
    .where('pending', '=', true)
    .where('superseded_at', 'is', null)
    .execute();
  const heldKeys = new Set(heldPending.map((p) => p.external_id));
  const newPending = pendingNow.filter((t) => !heldKeys.has(lineKey(t)));

  const plan = await planIngest(db, tenantId, feed.bank_account_id, [
    ...posted.map(toLine),
    ...newPending.map(toLine),
  ]);
  const ids = await writeIngest(db, plan, {
    tenantId,
    companyId: feed.company_id,
    deps,
    principal: origin.principal,
    source: 'feed',
    columns: () => ({ feed_id: feed.id }),
  });
  // The id each posted line has in the account: the new one, or the one it duplicates.
  const newIds = [...ids];
  const postedIds: { t: InvestecTransaction; id: string }[] = [];
  let imported = 0;
  plan.lines.forEach((p, i) => {
    const id = p.outcome === 'new' ? newIds.shift()! : p.duplicateOf!.id;
    if (i < posted.length) {
      postedIds.push({ t: posted[i]!, id });
      if (p.outcome === 'new') imported++;
    }
  });

  const stillPending = new Set(pendingNow.map(lineKey));
  const used = new Set<string>();
  let superseded = 0;
  for (const p of heldPending) {
    if (p.external_id && stillPending.has(p.external_id)) continue;
    const by = successorOf(p, postedIds, used);
    await db
      .updateTable('bank_transactions')
      .set({ superseded_at: now, superseded_by: by })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', p.id)
      .execute();
    superseded++;
  }

  await db
    .updateTable('bank_accounts')
    .set({ statement_balance: money(balance).toFixed(2), statement_date: dayOf(now) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', feed.bank_account_id)
    .execute();
  await db
    .updateTable('bank_feeds')
    .set({
      last_sync_at: now,
      last_sync_status: 'ok',
      last_error: null,
      consecutive_failures: 0,
      needs_attention: false,
      attention_reason: null,
      next_attempt_at: new Date(now.getTime() + SYNC_INTERVAL_MS),
      sync_count: sql`sync_count + 1`,
      total_imported: sql`total_imported + ${imported}`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', feed.id)
    .execute();
  return answer({
    ok: true,
    imported,
    duplicates: plan.duplicateCount,
    pending: newPending.length,
    superseded,
    fromDate,
    toDate,
    error: null,
  });
}
