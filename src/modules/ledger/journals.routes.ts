import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import {
  IdParams,
  Journal,
  JournalCreate,
  JournalsQuery,
  LedgerLine,
  LedgerQuery,
  LedgerSettings,
  LedgerSettingsUpdate,
  VoidQuery,
} from './journals.schemas.ts';
import {
  createJournal,
  getJournal,
  getLedgerSettings,
  listJournals,
  listLedgerLines,
  updateLedgerSettings,
  voidJournal,
} from './journals.service.ts';

const ledger = { module: 'reports', companyScoped: true } as const;

export const journalRoutes: AnyRoute[] = [
  defineRoute({
    ...ledger,
    method: 'GET',
    path: '/api/ledger',
    access: 'read',
    permission: ['reports', 'read'],
    summary: 'Journal lines, paged (filters: from, to, accountId, contactId, sourceType)',
    description: 'Oldest first: by date, then the order they were posted.',
    query: LedgerQuery,
    response: { 200: Paged(LedgerLine) },
    handler: async ({ query }, ctx) => listLedgerLines(ctx, query),
  }),
  defineRoute({
    ...ledger,
    method: 'POST',
    path: '/api/ledger/journals',
    access: 'write',
    permission: ['reports', 'write'],
    summary: 'Post a manual journal',
    description:
      'Debits must equal credits to the cent (400 on lines otherwise). Each line names its account by accountId ' +
      'or accountCode. Control accounts (debtors, creditors, inventory, customer deposits) are refused: only ' +
      'documents post to them. A date on or before the lock date is 409 PERIOD_LOCKED. Posted journals never ' +
      'change; DELETE voids one with a reversal. 201 on create; 200 with the journal when clientId was used.',
    body: JournalCreate,
    response: { 201: Journal, 200: Journal },
    handler: async ({ body }, ctx) => createJournal(ctx, body),
  }),
  defineRoute({
    ...ledger,
    method: 'GET',
    path: '/api/ledger/journals',
    access: 'read',
    permission: ['reports', 'read'],
    summary: 'Journal entries with their lines, newest first, paged (from, to, sourceType)',
    description: 'Every entry of the company: manual journals and those documents posted.',
    query: JournalsQuery,
    response: { 200: Paged(Journal) },
    handler: async ({ query }, ctx) => listJournals(ctx, query),
  }),
  defineRoute({
    ...ledger,
    method: 'GET',
    path: '/api/ledger/journals/{id}',
    access: 'read',
    permission: ['reports', 'read'],
    summary: 'One journal entry with its lines',
    params: IdParams,
    response: { 200: Journal },
    handler: async ({ params }, ctx) => getJournal(ctx, params.id),
  }),
  defineRoute({
    ...ledger,
    method: 'DELETE',
    path: '/api/ledger/journals/{id}',
    access: 'write',
    permission: ['reports', 'write'],
    summary: 'Void a manual journal: posts its reversal',
    description:
      'The journal stays, with status reversed and the reversal beside it. The reversal is dated the journal’s ' +
      'own date unless `date` says otherwise (a locked date is 409 PERIOD_LOCKED). Entries that documents ' +
      'posted are voided through the document (409 NOT_A_MANUAL_JOURNAL); a second void is 409.',
    params: IdParams,
    query: VoidQuery,
    response: { 200: Journal },
    handler: async ({ params, query }, ctx) => voidJournal(ctx, params.id, query.date),
  }),
  defineRoute({
    ...ledger,
    method: 'GET',
    path: '/api/ledger/settings',
    access: 'read',
    permission: ['reports', 'read'],
    summary: "The company's lock date and financial year end",
    response: { 200: LedgerSettings },
    handler: async (_input, ctx) => getLedgerSettings(ctx),
  }),
  defineRoute({
    ...ledger,
    method: 'PATCH',
    path: '/api/ledger/settings',
    access: 'write',
    permission: ['reports', 'approve'],
    summary: 'Set the lock date (nothing may be posted on or before it) or the financial year end',
    description: 'Needs reports:approve (an accountant, an admin or the owner). lockDate null unlocks.',
    body: LedgerSettingsUpdate,
    response: { 200: LedgerSettings },
    handler: async ({ body }, ctx) => updateLedgerSettings(ctx, body),
  }),
];
