// The cash flow statement (direct method, from cash_flow_balances). The VAT report is in
// reports.vat.ts.
import type { Static } from 'typebox';
import { addDays } from '../../platform/dates/days.ts';
import { sum, toNumber } from '../../platform/money/money.ts';
import { type AccountSubtype, accountTotals, cashFlowTotals } from '../ledger/index.ts';
import { companyFields, documentOf, periodText, type Report, type ReportCtx } from './reports.context.ts';
import type { CashFlow } from './reports.schemas.ts';
import { AMOUNT_COLUMNS, type Part, partJson, partRows } from './reports.statements.ts';

export type Activity = 'operating' | 'investing' | 'financing';

/** Which activity the cash that moved through a counter account belongs to, by its subtype. */
export function activityOf(subtype: AccountSubtype): Activity {
  if (subtype === 'fixed_asset' || subtype === 'non_current_asset') return 'investing';
  if (subtype === 'equity' || subtype === 'retained_earnings' || subtype === 'non_current_liability')
    return 'financing';
  return 'operating';
}

type CashFlowJson = Static<typeof CashFlow>;

export async function cashFlow(
  rc: ReportCtx,
  period: { from: string; to: string },
): Promise<Report<CashFlowJson>> {
  const db = rc.ctx.db;
  const opening = await accountTotals(db, rc.tenantId, rc.companyId, { to: addDays(period.from, -1) });
  const closing = new Map(
    (await accountTotals(db, rc.tenantId, rc.companyId, { to: period.to })).map((a) => [a.accountId, a.net]),
  );
  const flows = await cashFlowTotals(db, rc.tenantId, rc.companyId, period);
  const banks = opening
    .filter((a) => a.subtype === 'bank')
    .map((a) => ({ account: a, opening: a.net, closing: closing.get(a.accountId)! }))
    .filter((b) => b.account.isActive || !b.opening.isZero() || !b.closing.isZero());
  const parts: Record<Activity, Part> = {
    operating: { lines: [], total: sum([]) },
    investing: { lines: [], total: sum([]) },
    financing: { lines: [], total: sum([]) },
  };
  for (const a of opening) {
    const amount = flows.get(a.accountId);
    if (!amount || amount.isZero()) continue;
    const p = parts[activityOf(a.subtype)];
    p.lines.push({ id: a.accountId, code: a.code, name: a.name, amount });
    p.total = p.total.plus(amount);
  }
  const openingCash = sum(banks.map((b) => b.opening));
  const closingCash = sum(banks.map((b) => b.closing));
  const netChange = parts.operating.total.plus(parts.investing.total).plus(parts.financing.total);
  const reconciles = openingCash.plus(netChange).equals(closingCash);
  return {
    json: {
      ...companyFields(rc),
      ...period,
      openingCash: toNumber(openingCash),
      operating: partJson(parts.operating),
      investing: partJson(parts.investing),
      financing: partJson(parts.financing),
      netChange: toNumber(netChange),
      closingCash: toNumber(closingCash),
      cashAccounts: banks.map((b) => ({
        id: b.account.accountId,
        code: b.account.code,
        name: b.account.name,
        opening: toNumber(b.opening),
        closing: toNumber(b.closing),
      })),
      reconciles,
    },
    document: () =>
      documentOf(rc, {
        title: 'Cash flow statement',
        period: periodText(period.from, period.to),
        filename: `cash-flow_${period.from}_${period.to}`,
        notes: [
          'Direct method: the cash that came in (positive) or went out (negative) through each account. ' +
            'Investing: fixed and non-current assets; financing: equity, retained earnings and non-current ' +
            'liabilities; operating: everything else.',
        ],
        tables: [
          {
            columns: AMOUNT_COLUMNS,
            rows: [
              { cells: [null, 'Opening cash', openingCash], style: 'total' },
              ...partRows('Operating activities', parts.operating, 'Net cash from operating activities'),
              ...partRows('Investing activities', parts.investing, 'Net cash from investing activities'),
              ...partRows('Financing activities', parts.financing, 'Net cash from financing activities'),
              { cells: [null, 'Net change in cash', netChange], style: 'total' },
              { cells: [null, 'Closing cash', closingCash], style: 'grand' },
            ],
          },
        ],
      }),
  };
}
