import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
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
    operationId: 'listLedgerLines',
    tag: 'Ledger',
    access: 'read',
    permission: ['reports', 'read'],
    summary: 'Journal lines, paged (filters: from, to, accountId, contactId, sourceType)',
    description:
      'Oldest first: by date, then the order they were posted (entry, then line number). sort=createdAt ' +
      'orders by posting alone; `-` reverses either, ties in the same direction. Lines never change (a void ' +
      "posts a reversal's own lines), so each carries its entry's createdAt and updatedSince returns the lines " +
      'posted at or after it.',
    query: LedgerQuery,
    response: { 200: Paged(LedgerLine) },
    handler: async ({ query }, ctx) => listLedgerLines(ctx, query),
  }),
  defineRoute({
    ...ledger,
    method: 'POST',
    path: '/api/ledger/journals',
    operationId: 'createJournal',
    tag: 'Journals',
    errors: ['PERIOD_LOCKED', 'CONFLICT'],
    access: 'write',
    permission: ['reports', 'write'],
    summary: 'Post a manual journal',
    description:
      'Debits must equal credits to the cent (400 on lines otherwise). Each line names its account by accountId ' +
      'or accountCode. Control accounts (debtors, creditors, inventory, customer deposits) are refused: only ' +
      'documents post to them. VAT tags (taxCode with taxRate) must be right on the journal’s date: the code’s ' +
      'rate (15%, 14% before 2018-04-01; 0 for zero-rated and exempt codes), the company VAT-registered on ' +
      'that date, an output code’s VAT on the VAT output account and an input code’s on VAT input, and per ' +
      'code and rate the VAT lines equal the rate times the tagged net lines within half a cent per net line ' +
      '(the most that rounding each net line’s VAT once, per line or per document, can make) ' +
      '(accommodation_long: the rate of 60% of the net, s10(10); input_import, input_capital_import and ' +
      'imported_services excepted: their tax stands alone); otherwise a 400 naming the line (lines[i].taxRate, ' +
      'lines[i].taxCode, lines[i].debit or credit). A date on or before the lock date is 409 PERIOD_LOCKED. Posted journals never ' +
      'change; DELETE voids one with a reversal. 201 on create; 200 with the journal when clientId was used.',
    body: JournalCreate,
    response: { 201: Journal, 200: Journal },
    handler: async ({ body }, ctx) => createJournal(ctx, body),
  }),
  defineRoute({
    ...ledger,
    method: 'GET',
    path: '/api/ledger/journals',
    operationId: 'listJournals',
    tag: 'Journals',
    access: 'read',
    permission: ['reports', 'read'],
    summary: 'Journal entries with their lines, newest first, paged (from, to, sourceType)',
    description:
      'Every entry of the company: manual journals and those documents posted. Newest date first (then ' +
      'newest posted, then id); sort=date, createdAt or updatedAt, `-` for descending, ties by id in the ' +
      'same direction. An entry never changes; its updatedAt is when it was posted, or when its reversal ' +
      'was: updatedSince returns the entries posted or reversed at or after it, so a sync learns of a void.',
    query: JournalsQuery,
    response: { 200: Paged(Journal) },
    handler: async ({ query }, ctx) => listJournals(ctx, query),
  }),
  defineRoute({
    ...ledger,
    method: 'GET',
    path: '/api/ledger/journals/{id}',
    operationId: 'getJournal',
    tag: 'Journals',
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
    operationId: 'voidJournal',
    tag: 'Journals',
    errors: ['NOT_A_MANUAL_JOURNAL', 'ALREADY_REVERSED', 'PERIOD_LOCKED', 'CONFLICT'],
    access: 'write',
    permission: ['reports', 'write'],
    summary: 'Void a manual journal: posts its reversal',
    description:
      'The journal stays, with status reversed and the reversal beside it. The reversal is dated the journal’s ' +
      'own date unless `date` says otherwise (a locked date is 409 PERIOD_LOCKED). Entries that documents ' +
      'posted are voided through the document (409 NOT_A_MANUAL_JOURNAL); a second void is 409 ' +
      'ALREADY_REVERSED, and a reversal itself cannot be voided (409 CONFLICT).',
    params: IdParams,
    query: VoidQuery,
    response: { 200: Journal },
    handler: async ({ params, query }, ctx) => voidJournal(ctx, params.id, query.date),
  }),
  defineRoute({
    ...ledger,
    method: 'GET',
    path: '/api/ledger/settings',
    operationId: 'getLedgerSettings',
    tag: 'Ledger',
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
    operationId: 'updateLedgerSettings',
    tag: 'Ledger',
    access: 'write',
    permission: ['reports', 'approve'],
    summary: 'Set the lock date (nothing may be posted on or before it) or the financial year end',
    description: 'Needs reports:approve (an accountant, an admin or the owner). lockDate null unlocks.',
    body: LedgerSettingsUpdate,
    response: { 200: LedgerSettings },
    handler: async ({ body }, ctx) => updateLedgerSettings(ctx, body),
  }),
];
