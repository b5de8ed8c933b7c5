// Routes of banking: the bank feed (Investec-style): connecting, syncing, status.
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  BankFeed,
  BankFeedAccountList,
  BankFeedCreate,
  BankFeedKeys,
  BankFeedList,
  BankFeedSyncResult,
  BankFeedUpdate,
} from './bank-feeds.schemas.ts';
import {
  bankFeedAccounts,
  createBankFeed,
  disconnectBankFeed,
  getBankFeed,
  listBankFeeds,
  updateBankFeed,
} from './bank-feeds.service.ts';
import { syncBankFeed } from './bank-feeds.sync.ts';

const { read, write } = routeGroup({ module: 'banking', tag: 'Bank feeds', companyScoped: true });

const KEYS_NOTE =
  'The keys are sealed at rest (AES-256-GCM, SECRETS_KEY; a server install without it answers 503 naming it) ' +
  'and never answered back.';

export const bankFeedRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-feeds',
    operationId: 'listBankFeeds',
    summary: "The company's bank feeds (live and disconnected)",
    description: 'A bounded list (one live feed per bank account): no paging.',
    response: { 200: BankFeedList },
    handler: async (_input, ctx) => listBankFeeds(ctx),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bank-feeds/{id}',
    operationId: 'getBankFeed',
    summary: 'One bank feed, with its sync state',
    params: IdParams,
    response: { 200: BankFeed },
    handler: async ({ params }, ctx) => getBankFeed(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-feeds/accounts',
    operationId: 'listBankFeedAccounts',
    errors: ['UNPROCESSABLE', 'UNAVAILABLE'],
    summary: 'The bank accounts a set of keys can see (to pick one to connect)',
    description:
      "Asks the bank (Investec Programmable Banking) with the customer's read-only keys. Nothing is stored. " +
      '422 when the bank refuses the keys; 503 when the bank cannot be reached.',
    body: BankFeedKeys,
    response: { 200: BankFeedAccountList },
    handler: async ({ body }, ctx) => bankFeedAccounts(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-feeds',
    operationId: 'createBankFeed',
    errors: ['CONFLICT', 'UNPROCESSABLE', 'UNAVAILABLE'],
    summary: 'Connect a bank account to the bank',
    description:
      'The keys are checked with the bank first (422 when it refuses them; 400 when they do not see ' +
      `investecAccountId). One live feed per bank account (409). The first sync is due at once. ${KEYS_NOTE}`,
    body: BankFeedCreate,
    response: { 201: BankFeed },
    handler: async ({ body }, ctx) => createBankFeed(ctx, body),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/bank-feeds/{id}',
    operationId: 'updateBankFeed',
    errors: ['CONFLICT', 'UNPROCESSABLE', 'UNAVAILABLE'],
    summary: "Replace the feed's keys, or change syncFrom",
    description:
      'New keys come as all three and are checked with the bank (they must still see the account); they clear ' +
      `needsAttention and the failures, and the next sync is due at once. A disconnected feed: 409. ${KEYS_NOTE}`,
    params: IdParams,
    body: BankFeedUpdate,
    response: { 200: BankFeed },
    handler: async ({ params, body }, ctx) => updateBankFeed(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bank-feeds/{id}/sync',
    operationId: 'syncBankFeed',
    errors: ['CONFLICT', 'UNAVAILABLE'],
    summary: 'Sync the feed now',
    description:
      'Brings the posted lines from max(syncFrom, the last posted day - 3) to today (adding nothing a statement ' +
      'file or an earlier sync brought), the pending ones, and the balance. A failure of the bank is answered as ' +
      'the outcome (ok false, error) and recorded on the feed (backoff 15 min, 1 h, 4 h, then 12 h; needsAttention ' +
      'after 3 failures in a row, or at once when the bank refuses the keys). A disconnected feed: 409.',
    params: IdParams,
    response: { 200: BankFeedSyncResult },
    handler: async ({ params }, ctx) => {
      await getBankFeed(ctx, params.id);
      return syncBankFeed(
        ctx.db,
        { tenantId: ctx.tenantId, deps: ctx.deps, principal: ctx.principal },
        params.id,
      );
    },
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/bank-feeds/{id}',
    operationId: 'disconnectBankFeed',
    summary: 'Disconnect the feed (kept, with the lines it brought; its keys no longer used)',
    params: IdParams,
    response: { 200: BankFeed },
    handler: async ({ params }, ctx) => disconnectBankFeed(ctx, params.id),
  }),
];
