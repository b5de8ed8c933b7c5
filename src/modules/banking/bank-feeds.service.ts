// Bank feeds: connecting a bank account to the customer's bank (Investec Programmable Banking)
// with their read-only keys, changing the keys, disconnecting. The keys are checked with the
// bank before anything is stored, sealed at rest (SECRETS_KEY; without it, 503 naming it) and
// never answered back. Syncing is bank-feeds.sync.ts.

import type { Selectable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound, unavailable, unprocessable } from '../../platform/http/problem.ts';
import { sealSecret, secretKeysOf } from '../../platform/secrets/index.ts';
import { maskedAccountNumber } from '../../platform/secrets/masked.ts';
import { companyOf } from '../../platform/work/context.ts';
import { assertBankAccount } from './bank-accounts.service.ts';
import type { BankFeedCreate, BankFeedKeys, BankFeedUpdate } from './bank-feeds.schemas.ts';
import type { BankFeedsTable } from './bank-feeds.tables.ts';
import {
  type InvestecAccount,
  InvestecClient,
  InvestecError,
  type InvestecKeys,
} from './feeds/investec-client.ts';

export type BankFeedRow = Selectable<BankFeedsTable>;

/** The bank's account number as answers show it (one masking with the bank accounts'). */
/** The feed account's number masked; '' when the bank gave none. */
const maskedAccount = (n: string) => (n ? maskedAccountNumber(n) : '');

function statusLabel(r: BankFeedRow): string {
  if (r.status === 'disconnected') return 'Disconnected';
  if (r.needs_attention) return `Needs attention: ${r.attention_reason ?? 'the last syncs failed'}`;
  if (r.last_sync_status === 'failed') return 'Connected; the last sync failed and will be retried';
  if (r.last_sync_status === 'ok') return 'Connected';
  return 'Connected; first sync pending';
}

export function toBankFeed(r: BankFeedRow, bankAccountName: string) {
  return {
    id: r.id,
    bankAccountId: r.bank_account_id,
    bankAccountName,
    investecAccountId: r.investec_account_id,
    investecAccountName: r.investec_account_name,
    investecAccountMasked: r.investec_account_masked,
    currency: r.currency,
    status: r.status,
    statusLabel: statusLabel(r),
    lastSyncStatus: r.last_sync_status,
    lastError: r.last_error,
    attentionReason: r.attention_reason,
    lastSyncAt: r.last_sync_at?.toISOString() ?? null,
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    syncFrom: r.sync_from,
    syncCount: r.sync_count,
    totalImported: r.total_imported,
    consecutiveFailures: r.consecutive_failures,
    needsAttention: r.needs_attention,
  };
}

export type BankFeed = ReturnType<typeof toBankFeed>;

function selectFeeds(db: Tx, tenantId: string, companyId: string) {
  return db
    .selectFrom('bank_feeds as f')
    .innerJoin('accounts as a', (j) =>
      j.onRef('a.tenant_id', '=', 'f.tenant_id').onRef('a.id', '=', 'f.bank_account_id'),
    )
    .selectAll('f')
    .select('a.name as bank_account_name')
    .where('f.tenant_id', '=', tenantId)
    .where('f.company_id', '=', companyId);
}

/** The company's feed as answered (another company's, tenant's or none: 404). */
export async function bankFeedOf(db: Tx, tenantId: string, companyId: string, id: string): Promise<BankFeed> {
  const r = await selectFeeds(db, tenantId, companyId).where('f.id', '=', id).executeTakeFirst();
  if (!r) throw notFound('Bank feed');
  return toBankFeed(r, r.bank_account_name);
}

async function feedRow(ctx: TenantCtx, id: string, lock = false): Promise<BankFeedRow> {
  const q = ctx.db
    .selectFrom('bank_feeds')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id);
  const r = await (lock ? q.forUpdate() : q).executeTakeFirst();
  if (!r) throw notFound('Bank feed');
  return r;
}

export async function listBankFeeds(ctx: TenantCtx) {
  const rows = await selectFeeds(ctx.db, ctx.tenantId, companyOf(ctx))
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
  return { feeds: rows.map((r) => toBankFeed(r, r.bank_account_name)) };
}

export function getBankFeed(ctx: TenantCtx, id: string) {
  return bankFeedOf(ctx.db, ctx.tenantId, companyOf(ctx), id);
}

/** The accounts the keys see; the bank refusing them is a 422, the bank unreachable a 503. */
async function accountsSeen(ctx: TenantCtx, keys: InvestecKeys): Promise<InvestecAccount[]> {
  try {
    return await new InvestecClient(ctx.deps.config.bankFeedBaseUrl, keys).accounts();
  } catch (err) {
    if (!(err instanceof InvestecError)) throw err;
    if (err.kind === 'unauthorized')
      throw unprocessable('The bank refused the keys', [
        'Check the client id, client secret and API key in Investec Online (Programmable Banking)',
      ]);
    throw unavailable(`The bank could not be asked: ${err.message}`);
  }
}

/** POST /api/bank-feeds/accounts: what the keys can see, to pick one. Nothing is stored. */
export async function bankFeedAccounts(ctx: TenantCtx, body: Static<typeof BankFeedKeys>) {
  companyOf(ctx);
  const accounts = await accountsSeen(ctx, keysOf(body));
  return {
    accounts: accounts.map((a) => ({
      investecAccountId: a.accountId,
      investecAccountName: a.accountName ?? '',
      investecAccountMasked: maskedAccount(a.accountNumber ?? ''),
      referenceName: a.referenceName ?? '',
      productName: a.productName ?? '',
    })),
  };
}

/** The keys as a body names them (investec*), as the client takes them. */
function keysOf(body: {
  investecClientId: string;
  investecClientSecret: string;
  investecApiKey: string;
}): InvestecKeys {
  return {
    clientId: body.investecClientId,
    clientSecret: body.investecClientSecret,
    apiKey: body.investecApiKey,
  };
}

function sealedKeys(ctx: TenantCtx, keys: InvestecKeys) {
  const secrets = secretKeysOf(ctx.deps);
  return {
    client_id_sealed: sealSecret(secrets, keys.clientId),
    client_secret_sealed: sealSecret(secrets, keys.clientSecret),
    api_key_sealed: sealSecret(secrets, keys.apiKey),
  };
}

function accountOf(accounts: InvestecAccount[], id: string, field: string): InvestecAccount {
  const a = accounts.find((x) => x.accountId === id);
  if (!a) throw badRequest(field, 'the keys given do not see this Investec account');
  return a;
}

/**
 * POST /api/bank-feeds: connects the bank account. The keys are checked with the bank (they
 * must see investecAccountId) before anything is stored; the first sync is due at once.
 */
export async function createBankFeed(ctx: TenantCtx, body: Static<typeof BankFeedCreate>): Promise<BankFeed> {
  const companyId = companyOf(ctx);
  // SECRETS_KEY first: without it nothing can be kept, whatever else the request says.
  const sealed = sealedKeys(ctx, keysOf(body));
  const account = await assertBankAccount(ctx.db, ctx.tenantId, companyId, body.bankAccountId);
  const live = await ctx.db
    .selectFrom('bank_feeds')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('bank_account_id', '=', account.id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (live)
    throw conflict(`${account.name} already has a live bank feed (${live.id}): disconnect it first`, {
      field: 'bankAccountId',
    });
  const seen = accountOf(await accountsSeen(ctx, keysOf(body)), body.investecAccountId, 'investecAccountId');
  const id = crypto.randomUUID();
  const inserted = await ctx.db
    .insertInto('bank_feeds')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      bank_account_id: account.id,
      investec_account_id: seen.accountId,
      investec_account_name: seen.accountName ?? '',
      investec_account_masked: maskedAccount(seen.accountNumber ?? ''),
      currency: account.currency,
      ...sealed,
      sync_from: body.syncFrom,
      next_attempt_at: ctx.deps.now(),
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  // Two connections at once: the one live feed per account index lets one in.
  if (!inserted) throw conflict(`${account.name} already has a live bank feed`, { field: 'bankAccountId' });
  return bankFeedOf(ctx.db, ctx.tenantId, companyId, id);
}

/**
 * PATCH /api/bank-feeds/{id}: new keys (all three, checked with the bank: they must still see
 * the feed's account) and/or a new syncFrom. New keys clear the attention and the failures:
 * the next sync is due at once.
 */
export async function updateBankFeed(
  ctx: TenantCtx,
  id: string,
  body: Static<typeof BankFeedUpdate>,
): Promise<BankFeed> {
  const row = await feedRow(ctx, id, true);
  if (row.status === 'disconnected') throw conflict('The bank feed is disconnected: connect a new one');
  const given = [body.investecClientId, body.investecClientSecret, body.investecApiKey].filter(
    (k) => k !== undefined,
  ).length;
  const set: Updateable<BankFeedsTable> = {};
  if (given > 0) {
    const names = ['investecClientId', 'investecClientSecret', 'investecApiKey'] as const;
    const missing = names.find((k) => body[k] === undefined);
    if (missing) throw badRequest(missing, `new keys come as all three: ${names.join(', ')}`);
    const keys = keysOf(body as Required<typeof body>);
    const sealed = sealedKeys(ctx, keys);
    accountOf(await accountsSeen(ctx, keys), row.investec_account_id, 'investecClientId');
    Object.assign(set, sealed, {
      needs_attention: false,
      attention_reason: null,
      consecutive_failures: 0,
      next_attempt_at: ctx.deps.now(),
    });
  }
  if (body.syncFrom !== undefined && body.syncFrom !== row.sync_from) {
    set.sync_from = body.syncFrom;
    // An earlier start is fetched at the next sync: make it due now (unless waiting for keys).
    if (!row.needs_attention || given > 0) set.next_attempt_at = ctx.deps.now();
  }
  if (Object.keys(set).length)
    await ctx.db
      .updateTable('bank_feeds')
      .set(set)
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  return getBankFeed(ctx, id);
}

/** DELETE /api/bank-feeds/{id}: disconnects (soft); the lines it brought stay. Again: the same answer. */
export async function disconnectBankFeed(ctx: TenantCtx, id: string): Promise<BankFeed> {
  const row = await feedRow(ctx, id, true);
  if (row.status === 'active')
    await ctx.db
      .updateTable('bank_feeds')
      .set({ status: 'disconnected', disconnected_at: ctx.deps.now(), next_attempt_at: null })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  return getBankFeed(ctx, id);
}
