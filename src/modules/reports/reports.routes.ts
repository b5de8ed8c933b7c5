import { Type } from 'typebox';
import {
  documentFile,
  FILE_MEDIA_TYPES,
  type FileResponse,
  negotiatedFormat,
} from '../../platform/files/response.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { AgedRow } from '../contacts/index.ts';
import { aged } from './reports.aged.ts';
import { cashFlow, vatReport } from './reports.cash-vat.ts';
import { asOfOf, periodOf, type Report, reportCtx } from './reports.context.ts';
import { generalLedger, trialBalance } from './reports.ledger.ts';
import {
  AsOfQuery,
  BalanceSheet,
  CashFlow,
  type Format,
  GeneralLedger,
  GeneralLedgerQuery,
  IncomeStatement,
  PeriodQuery,
  TrialBalance,
  TrialBalanceQuery,
  VatReport,
} from './reports.schemas.ts';
import { balanceSheet, incomeStatement } from './reports.statements.ts';

const report = {
  module: 'reports' as const,
  access: 'read' as const,
  permission: ['reports', 'read'] as ['reports', 'read'],
  companyScoped: true,
  files: FILE_MEDIA_TYPES,
};

/** The JSON body, or the report as a file rendered after the transaction commits. */
function answer<J>(format: Format, r: Report<J>): J | FileResponse {
  return format === 'csv' || format === 'pdf' ? documentFile(format, r.document()) : r.json;
}

const COMMON =
  'From the ledger alone: sums of the running balances that posting maintains, never of the journal ' +
  'lines, so the cost follows the number of accounts and months, not of lines. Amounts are JSON numbers, ' +
  'exact to the cent. format (or, without it, the Accept header: application/json, text/csv or application/pdf): json (default), csv (a header row, then the rows; text/csv in UTF-8 with a ' +
  'file name in Content-Disposition) or pdf (company, title, period, rows and totals, with page breaks); ' +
  'anything else is a 400 naming format. Dates are YYYY-MM-DD; an impossible one is a 400 naming it.';
const PERIOD =
  'to defaults to today (UTC); from to the first day of the financial year that contains to ' +
  '(ledger settings: financialYearEndMonth, February by default). to before from is a 400 naming to.';
const AS_OF = 'asOf (default today, UTC) re-derives the position at the end of that day from the ledger.';

export const reportRoutes: AnyRoute[] = [
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/income-statement',
    operationId: 'getIncomeStatement',
    tag: 'Reports',
    summary: 'Income statement (profit and loss) for a period',
    description:
      'Revenue, cost of sales, gross profit, other income, expenses and net profit; each section lists its ' +
      'accounts (those that moved) and a total. Income and expenses both read positive in their sections ' +
      '(income = credits − debits, expenses = debits − credits); net profit = gross profit + other income − ' +
      `expenses, negative for a loss. Sections follow the accounts' subtypes. ${PERIOD} ${COMMON}`,
    query: PeriodQuery,
    response: { 200: IncomeStatement },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      return answer(
        negotiatedFormat(query.format, headers.accept),
        await incomeStatement(rc, periodOf(rc, query)),
      );
    },
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/balance-sheet',
    operationId: 'getBalanceSheet',
    tag: 'Reports',
    summary: 'Balance sheet at a date',
    description:
      'Assets, liabilities and equity grouped by subtype, with totals. Assets are debits − credits, ' +
      'liabilities and equity credits − debits. Income and expense accounts are never closed by entries: ' +
      'equity shows retained earnings (the retained earnings accounts plus every profit before the start ' +
      'of the financial year containing asOf) and current year earnings (the profit from that start to ' +
      `asOf), so assets = liabilities + equity at any date; balanced states it. ${AS_OF} ${COMMON}`,
    query: AsOfQuery,
    response: { 200: BalanceSheet },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      return answer(
        negotiatedFormat(query.format, headers.accept),
        await balanceSheet(rc, asOfOf(rc, query)),
      );
    },
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/trial-balance',
    operationId: 'getTrialBalance',
    tag: 'Reports',
    summary: 'Trial balance at a date (asOf), or the movements of a period (from, to)',
    description:
      'Every account with a non-zero balance (includeZero=true: every account of the chart) in a debit or a ' +
      'credit column; the totals are equal. With asOf (the default): balance sheet accounts since the first ' +
      'entry, income and expense accounts for the financial year to asOf, the profit of earlier years ' +
      'added to retained earnings (as on the balance sheet). With from or to: the net movement of each ' +
      `account in the period (${PERIOD}). asOf together with from or to is a 400 naming asOf. ${COMMON}`,
    query: TrialBalanceQuery,
    response: { 200: TrialBalance },
    handler: async ({ query, headers }, ctx) =>
      answer(negotiatedFormat(query.format, headers.accept), await trialBalance(await reportCtx(ctx), query)),
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/general-ledger',
    operationId: 'getGeneralLedger',
    tag: 'Reports',
    errors: ['NOT_FOUND', 'UNPROCESSABLE'],
    summary: 'General ledger: every account’s lines in a period with opening, running and closing balances',
    description:
      'Per account (by code; accountId for one, 404 when not of this company): the opening balance (debit − ' +
      'credit at the end of the day before from, from the running balances; income and expense accounts ' +
      'count from the start of that financial year, their earlier years being in retained earnings), the ' +
      "period's lines in posting order (date, entry, description, reference, debit, credit, running " +
      'balance) and the closing balance. Accounts with no opening balance and no lines are left out. More ' +
      `than 100 000 lines is a 422: ask for a shorter period or one account. ${PERIOD} ${COMMON}`,
    query: GeneralLedgerQuery,
    response: { 200: GeneralLedger },
    handler: async ({ query, headers }, ctx) =>
      answer(
        negotiatedFormat(query.format, headers.accept),
        await generalLedger(await reportCtx(ctx), query),
      ),
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/cash-flow',
    operationId: 'getCashFlow',
    tag: 'Reports',
    summary: 'Cash flow statement (direct method) for a period',
    description:
      'Opening cash (the bank-subtype accounts at the end of the day before from), the cash from operating, ' +
      'investing and financing activities, the net change and closing cash; opening + net change = closing ' +
      '(reconciles). Each activity lists the counter accounts of the entries that moved a bank account, ' +
      'positive for cash in. Classified by the counter account’s subtype: fixed_asset and ' +
      'non_current_asset → investing; equity, retained_earnings and non_current_liability → financing; ' +
      `everything else → operating. Transfers between bank accounts are no flow. ${PERIOD} ${COMMON}`,
    query: PeriodQuery,
    response: { 200: CashFlow },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      return answer(negotiatedFormat(query.format, headers.accept), await cashFlow(rc, periodOf(rc, query)));
    },
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/vat',
    operationId: 'getVatReport',
    tag: 'Reports',
    summary: 'VAT report: output and input VAT by code and rate, and the VAT201 fields',
    description:
      'From the VAT code and rate on the journal lines. Output codes (standard, standard_capital, zero, ' +
      'zero_export, exempt): net = credits − debits of the sales lines, VAT = credits − debits of the VAT ' +
      'account lines; input codes (input_standard, input_capital, input_zero, input_exempt, input_import) the ' +
      'other way round. VAT201: field1 = standard net + VAT, field4 = its VAT; field1A and field4A the same ' +
      'for standard_capital; field2 = zero net; field2A = zero_export net; field3 = exempt net; field13 = 4 + ' +
      '4A; field14 = input_capital VAT; field15 = input_standard VAT; field15A = input_import VAT; field19 = ' +
      '14 + 15 + 15A; field20 = 13 − 19 (payable; negative is refundable). Every rate of a code goes in its ' +
      'field (15%, and 14% before 2018-04-01). Fields 5–12 and 16–18 (adjustments) are not derived from the ' +
      `ledger. ${PERIOD} ${COMMON}`,
    query: PeriodQuery,
    response: { 200: VatReport },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      return answer(negotiatedFormat(query.format, headers.accept), await vatReport(rc, periodOf(rc, query)));
    },
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/aged-debtors',
    operationId: 'getCompanyAgedDebtors',
    tag: 'Reports',
    summary: 'Aged debtors of the company: what each customer owes, by age',
    description:
      'The rows of GET /api/contacts/aged-debtors for the company of X-Company-Id (one aging logic): current ' +
      '(not yet due on asOf), days30 (1–30 days past due), days60 (31–60), days90 (61–90), days120 (91–120), ' +
      'older (more than 120), total and overdue (days30 + days60 + days90 + days120 + older), one row per ' +
      `contact with a non-zero total, by name; a bare array. ${AS_OF} ${COMMON}`,
    query: AsOfQuery,
    response: { 200: Type.Array(AgedRow) },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      return answer(
        negotiatedFormat(query.format, headers.accept),
        await aged(rc, 'debtors', asOfOf(rc, query)),
      );
    },
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/aged-creditors',
    operationId: 'getCompanyAgedCreditors',
    tag: 'Reports',
    summary: 'Aged creditors of the company: what is owed to each supplier, by age',
    description:
      'The rows of GET /api/contacts/aged-creditors for the company of X-Company-Id, positive for what is ' +
      `owed; buckets as for aged debtors; a bare array. ${AS_OF} ${COMMON}`,
    query: AsOfQuery,
    response: { 200: Type.Array(AgedRow) },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      return answer(
        negotiatedFormat(query.format, headers.accept),
        await aged(rc, 'creditors', asOfOf(rc, query)),
      );
    },
  }),
];
