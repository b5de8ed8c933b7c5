import { Type } from 'typebox';
import {
  documentFile,
  FILE_MEDIA_TYPES,
  type FileResponse,
  negotiatedFormat,
} from '../../platform/files/response.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { AgedRow } from '../contacts/index.ts';
import { aged } from './reports.aged.ts';
import { cashFlow } from './reports.cash-flow.ts';
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
  IncomeStatementQuery,
  PeriodQuery,
  TrialBalance,
  TrialBalanceQuery,
} from './reports.schemas.ts';
import { balanceSheet, incomeStatement } from './reports.statements.ts';
import { VatPeriod, VatPeriodParams, VatPeriodsQuery, VatQuery, VatReport } from './reports.vat.schemas.ts';
import { vatReport } from './reports.vat.ts';
import { vatPeriodsRange, vatReportRange } from './vat-query.ts';
import { submitVatPeriod, vatPeriods } from './vat-state.ts';

const report = { ...routeGroup({ module: 'reports', companyScoped: true }).read, files: FILE_MEDIA_TYPES };

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
      `expenses, negative for a loss. Sections follow the accounts' subtypes. costCentreId reads only the lines ` +
      `naming that cost centre (costCentre names it in the answer). ${PERIOD} ${COMMON}`,
    query: IncomeStatementQuery,
    response: { 200: IncomeStatement },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      return answer(
        negotiatedFormat(query.format, headers.accept),
        await incomeStatement(rc, periodOf(rc, query), query.costCentreId),
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
    summary: 'VAT report: output and input VAT by code and rate, and every VAT201 field',
    description:
      'From the VAT code and rate on the journal lines (the TaxCode schema names each code and its field). ' +
      'Output codes: net = credits − debits of the sales lines, VAT = credits − debits of the VAT account ' +
      'lines; input codes the other way round. vat201 holds every field of the SARS VAT201 (GEN-ELEC-04-G01), ' +
      'fields lists them in SARS order with their numbers and labels: 1/4 standard (VAT included / its VAT, ' +
      'at the rate of the return: 15%, 14% for a range ending before 2018-04-01), 1A/4A standard_capital, 2 zero, 2A ' +
      'zero_export, 3 exempt; 5 accommodation_long (excluding VAT), 6 = 60% of 5 (s10(10)), 7 ' +
      'accommodation_short, 8 = 6 + 7, 9 = the standard rate of 8 as SARS computes it; 10/11 change_in_use ' +
      '(s18(1)); 12 imported_services (s7(1)(c)) and the VAT of bad debts recovered (bad_debt_recovered, ' +
      "s22(2): SARS's placement of recovered bad debts is taken as field 12); 13 = 4 + 4A + 9 + 11 + 12; 14 " +
      'input_capital, 14A input_capital_import, 15 input_standard, 15A input_import, 16 input_change_in_use ' +
      '(s18(4)), 17 input_bad_debt (s22(1)), 18 input_other; 19 = 14 + 14A + 15 + 15A + 16 + 17 + 18; 20 = 13 ' +
      '− 19 (negative: refundable). An earlier rate: a standard-rated line (imports aside) at a rate other ' +
      'than the standard rate on the last day of the range (14% in a return ending from 2018-04-01: a March ' +
      '2018 supply or purchase, a credit or debit note against a 14% supply, s21) is kept out of its field ' +
      'and declared by its VAT, each posting apart: output tax charged or increased in 12, decreased in 18; ' +
      'input tax claimed or increased in 18, decreased in 12. ' +
      'period=<id> (GET /api/reports/vat/periods) asks for a VAT period instead of from and to (both is a 400 ' +
      'naming period; an id that is not a period of the company’s VAT category is a 400 naming it); from and ' +
      'to that are exactly a period count as it. A submitted period answers the figures frozen when it was ' +
      'submitted, whatever was posted later. An open period reports, for each submitted period it is the ' +
      'first open period after, what was posted dated in it since it was reported (adjustments): an increase ' +
      'of output tax or a decrease of input tax in field 12, a decrease of output tax or an increase of input ' +
      `tax in field 18. Without period: ${PERIOD} ${COMMON}`,
    query: VatQuery,
    response: { 200: VatReport },
    handler: async ({ query, headers }, ctx) => {
      const rc = await reportCtx(ctx);
      const { range, period } = await vatReportRange(rc, query);
      return answer(negotiatedFormat(query.format, headers.accept), await vatReport(rc, range, period));
    },
  }),
  defineRoute({
    ...report,
    method: 'GET',
    path: '/api/reports/vat/periods',
    operationId: 'listVatPeriods',
    tag: 'Reports',
    summary: "The company's VAT periods, open or submitted",
    description:
      "The VAT periods of the company's VAT category (vatCategory on the company: A and B two-monthly, " +
      'ending in the odd and the even months; C monthly; D six-monthly, ending at the end of February and of ' +
      'August; E twelve months ending at the financial year end) that overlap from..to, in date order; a bare ' +
      'array. from defaults to the first day of the financial year containing to, to to the last day of the ' +
      'financial year containing today; to before from is a 400 naming to, a range of more than 120 periods a ' +
      "400 naming to. A period's id is its end month (YYYY-MM); status open or submitted (POST " +
      '/api/reports/vat/periods/{id}/submit), with submittedAt; a submitted period keeps the dates it was ' +
      'submitted for.',
    query: VatPeriodsQuery,
    response: { 200: Type.Array(VatPeriod) },
    handler: async ({ query }, ctx) => {
      const rc = await reportCtx(ctx);
      return vatPeriods(rc, vatPeriodsRange(rc, query));
    },
  }),
  defineRoute({
    module: 'reports',
    companyScoped: true,
    access: 'write',
    permission: ['reports', 'approve'],
    method: 'POST',
    path: '/api/reports/vat/periods/{id}/submit',
    operationId: 'submitVatPeriod',
    tag: 'Reports',
    errors: ['VAT_PERIOD_SUBMITTED', 'UNPROCESSABLE'],
    summary: 'Mark a VAT period submitted: its figures are frozen',
    description:
      'For a VAT return filed with SARS. Stores the totals by code and rate that the period’s report shows ' +
      'now (and the adjustments it reports for earlier submitted periods): from then on GET ' +
      '/api/reports/vat?period=<id> answers them, whatever is posted later; a posting dated in the period ' +
      'afterwards is reported by the next open period in field 12 or 18. Needs the reports:approve ' +
      'permission (owner, admin, accountant). An id that is no period of the company’s VAT category is a 404; ' +
      'a period not yet ended (today on or before its last day) a 422; a period submitted already, or one ' +
      'overlapping a period submitted under another VAT category, a 409 VAT_PERIOD_SUBMITTED. Answers the period.',
    params: VatPeriodParams,
    response: { 200: VatPeriod },
    handler: async ({ params }, ctx) => submitVatPeriod(await reportCtx(ctx), params.id),
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
