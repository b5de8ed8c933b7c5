// The trial balance (from the running balances) and the general ledger (opening balances from
// the running balances, the period's lines from journal_lines).
import type { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import { addDays, financialYearStart } from '../../platform/dates/days.ts';
import type { Row } from '../../platform/files/table.ts';
import { badRequest, notFound, unprocessable } from '../../platform/http/problem.ts';
import { money, sum, toNumber, ZERO } from '../../platform/money/money.ts';
import { type AccountTotal, accountTotals } from '../ledger/index.ts';
import {
  asAtText,
  asOfOf,
  companyFields,
  documentOf,
  periodOf,
  periodText,
  type Report,
  type ReportCtx,
} from './reports.context.ts';
import type {
  GeneralLedger,
  GeneralLedgerQuery,
  TrialBalance,
  TrialBalanceQuery,
} from './reports.schemas.ts';

type TrialBalanceJson = Static<typeof TrialBalance>;

interface TbRow {
  id: string | null;
  code: string | null;
  name: string;
  type: string;
  subtype: string;
  net: Decimal;
}

const isProfitAndLoss = (a: { type: string }) => a.type === 'income' || a.type === 'expense';

/**
 * Balances at the end of asOf: balance sheet accounts since the first entry; income and expense
 * accounts for the financial year to asOf, the profit of earlier years added to retained
 * earnings (as the balance sheet shows it). Or, with from/to, what moved in the period.
 */
export async function trialBalance(
  rc: ReportCtx,
  query: Static<typeof TrialBalanceQuery>,
): Promise<Report<TrialBalanceJson>> {
  const movements = query.from !== undefined || query.to !== undefined;
  if (movements && query.asOf !== undefined)
    throw badRequest('asOf', 'give asOf for balances, or from and to for movements, not both');
  const db = rc.ctx.db;
  let rows: TbRow[];
  let heading: { asOf: string | null; from: string | null; to: string | null };
  const toRow = (a: AccountTotal, net = a.net): TbRow => ({
    id: a.accountId,
    code: a.code,
    name: a.name,
    type: a.type,
    subtype: a.subtype,
    net,
  });
  if (movements) {
    const period = periodOf(rc, query);
    rows = (await accountTotals(db, rc.tenantId, rc.companyId, period)).map((a) => toRow(a));
    heading = { asOf: null, ...period };
  } else {
    const asOf = asOfOf(rc, query);
    const yearStart = financialYearStart(asOf, rc.yearEndMonth);
    const atDate = await accountTotals(db, rc.tenantId, rc.companyId, { to: asOf });
    const before = new Map(
      (await accountTotals(db, rc.tenantId, rc.companyId, { to: addDays(yearStart, -1) })).map((a) => [
        a.accountId,
        a,
      ]),
    );
    // debit − credit of the income and expense accounts before the year: minus the profit.
    const earlier = sum([...before.values()].filter(isProfitAndLoss).map((a) => a.net));
    rows = atDate.map((a) =>
      toRow(a, isProfitAndLoss(a) ? a.net.minus(before.get(a.accountId)!.net) : a.net),
    );
    const retained =
      rows.find((r) => atDate.find((a) => a.accountId === r.id)?.systemKey === 'retained_earnings') ??
      rows.find((r) => r.subtype === 'retained_earnings');
    if (retained) retained.net = retained.net.plus(earlier);
    else if (!earlier.isZero())
      rows.push({
        id: null,
        code: null,
        name: 'Retained earnings (profit of earlier financial years)',
        type: 'equity',
        subtype: 'retained_earnings',
        net: earlier,
      });
    heading = { asOf, from: null, to: null };
  }
  const shown = query.includeZero ? rows : rows.filter((r) => !r.net.isZero());
  const debitOf = (r: TbRow) => (r.net.isPositive() && !r.net.isZero() ? r.net : ZERO);
  const creditOf = (r: TbRow) => (r.net.isNegative() && !r.net.isZero() ? r.net.negated() : ZERO);
  const totalDebit = sum(shown.map(debitOf));
  const totalCredit = sum(shown.map(creditOf));
  const title = movements ? 'Trial balance (movements)' : 'Trial balance';
  const period = heading.asOf ? asAtText(heading.asOf) : periodText(heading.from!, heading.to!);
  return {
    json: {
      ...companyFields(rc),
      basis: movements ? 'movements' : 'asOf',
      ...heading,
      accounts: shown.map((r) => ({
        id: r.id,
        code: r.code,
        name: r.name,
        type: r.type,
        subtype: r.subtype,
        debit: toNumber(debitOf(r)),
        credit: toNumber(creditOf(r)),
      })),
      totals: { debit: toNumber(totalDebit), credit: toNumber(totalCredit) },
      balanced: totalDebit.equals(totalCredit),
    },
    document: () =>
      documentOf(rc, {
        title,
        period,
        filename: heading.asOf
          ? `trial-balance_${heading.asOf}`
          : `trial-balance-movements_${heading.from}_${heading.to}`,
        notes: movements
          ? ['The net movement of each account in the period.']
          : ['Income and expenses for the financial year to date; earlier profit is in retained earnings.'],
        tables: [
          {
            columns: [
              { label: 'Code', width: 0.7 },
              { label: 'Account', width: 3.3 },
              { label: 'Type', width: 1 },
              { label: 'Debit', kind: 'money', width: 1.3 },
              { label: 'Credit', kind: 'money', width: 1.3 },
            ],
            rows: [
              ...shown.map((r): Row => ({ cells: [r.code, r.name, r.type, debitOf(r), creditOf(r)] })),
              { cells: [null, 'Total', null, totalDebit, totalCredit], style: 'grand' },
            ],
          },
        ],
      }),
  };
}

/** More lines than this in one general ledger is a 422: narrow the period or pick an account. */
export const GENERAL_LEDGER_MAX_LINES = 100_000;

interface LineRow {
  account_id: string;
  date: string;
  entry_id: string;
  line_no: number;
  description: string;
  reference: string | null;
  source_type: string;
  debit: string;
  credit: string;
  reverses_entry_id: string | null;
  contact_name: string | null;
}

/**
 * A reversal line (a void, a reversed payment or journal) says so: "Void: " and the text of the
 * line it reverses (same line number of the reversed entry), then the contact's name when that
 * line had one, instead of repeating the original text as if it were a second posting.
 */
function describe(l: LineRow): string {
  if (!l.reverses_entry_id) return l.description;
  return `Void: ${l.description}${l.contact_name ? ` — ${l.contact_name}` : ''}`;
}

type GeneralLedgerJson = Static<typeof GeneralLedger>;

/**
 * Per account: the balance before `from` (debit − credit; income and expense accounts from the
 * start of that financial year, as their earlier years sit in retained earnings), the period's
 * lines in posting order with the running balance, and the closing balance.
 */
export async function generalLedger(
  rc: ReportCtx,
  query: Static<typeof GeneralLedgerQuery>,
): Promise<Report<GeneralLedgerJson>> {
  const period = periodOf(rc, query);
  const db = rc.ctx.db;
  const dayBefore = addDays(period.from, -1);
  const yearStart = financialYearStart(period.from, rc.yearEndMonth);
  let accounts = await accountTotals(db, rc.tenantId, rc.companyId, { to: dayBefore });
  const yearToDate = new Map(
    (await accountTotals(db, rc.tenantId, rc.companyId, { from: yearStart, to: dayBefore })).map((a) => [
      a.accountId,
      a.net,
    ]),
  );
  if (query.accountId) {
    accounts = accounts.filter((a) => a.accountId === query.accountId!.toLowerCase());
    if (!accounts.length) throw notFound('Account');
  }
  const r = await sql<LineRow>`
    select l.account_id, l.date, l.entry_id, l.line_no,
           case when e.reverses_entry_id is null then coalesce(l.description, e.description)
                else coalesce(ol.description, oe.description, l.description, e.description) end as description,
           e.reference, e.source_type, l.debit, l.credit, e.reverses_entry_id,
           c.name as contact_name
      from journal_lines l
      join journal_entries e on e.tenant_id = l.tenant_id and e.id = l.entry_id
      left join journal_entries oe on oe.tenant_id = e.tenant_id and oe.id = e.reverses_entry_id
      left join journal_lines ol on ol.tenant_id = oe.tenant_id and ol.entry_id = oe.id and ol.line_no = l.line_no
      left join contacts c on c.tenant_id = l.tenant_id
            and c.id = case when e.reverses_entry_id is null then l.contact_id else ol.contact_id end
     where l.tenant_id = ${rc.tenantId} and l.company_id = ${rc.companyId}
       and l.date between ${period.from}::date and ${period.to}::date
       ${query.accountId ? sql`and l.account_id = ${query.accountId.toLowerCase()}` : sql``}
     order by l.date, e.created_at, l.entry_id, l.line_no
     limit ${GENERAL_LEDGER_MAX_LINES + 1}`.execute(db);
  if (r.rows.length > GENERAL_LEDGER_MAX_LINES) {
    throw unprocessable(
      `The general ledger would list more than ${GENERAL_LEDGER_MAX_LINES} lines; ask for a shorter period ` +
        '(from, to) or one account (accountId)',
    );
  }
  const linesOf = new Map<string, LineRow[]>();
  for (const line of r.rows) {
    const list = linesOf.get(line.account_id);
    if (list) list.push(line);
    else linesOf.set(line.account_id, [line]);
  }
  const out = accounts
    .map((a) => {
      const opening = isProfitAndLoss(a) ? (yearToDate.get(a.accountId) ?? ZERO) : a.net;
      let balance = opening;
      const lines = (linesOf.get(a.accountId) ?? []).map((l) => {
        const debit = money(l.debit);
        const credit = money(l.credit);
        balance = balance.plus(debit).minus(credit);
        return { ...l, description: describe(l), debit, credit, balance };
      });
      return {
        account: a,
        opening,
        lines,
        totalDebit: sum(lines.map((l) => l.debit)),
        totalCredit: sum(lines.map((l) => l.credit)),
        closing: balance,
      };
    })
    .filter((x) => query.accountId || x.lines.length > 0 || !x.opening.isZero());
  return {
    json: {
      ...companyFields(rc),
      ...period,
      accounts: out.map((x) => ({
        id: x.account.accountId,
        code: x.account.code,
        name: x.account.name,
        type: x.account.type,
        openingBalance: toNumber(x.opening),
        lines: x.lines.map((l) => ({
          date: l.date,
          entryId: l.entry_id,
          lineNo: l.line_no,
          description: l.description,
          reference: l.reference,
          sourceType: l.source_type,
          contactName: l.contact_name,
          reversesEntryId: l.reverses_entry_id,
          debit: toNumber(l.debit),
          credit: toNumber(l.credit),
          balance: toNumber(l.balance),
        })),
        totalDebit: toNumber(x.totalDebit),
        totalCredit: toNumber(x.totalCredit),
        closingBalance: toNumber(x.closing),
      })),
    },
    document: () =>
      documentOf(rc, {
        title: 'General ledger',
        period: periodText(period.from, period.to),
        filename: `general-ledger_${period.from}_${period.to}`,
        landscape: true,
        notes: [
          'Balances are debit − credit (a credit balance is negative). Income and expense accounts open ' +
            'with the financial year to date.',
        ],
        tables: [
          {
            columns: [
              { label: 'Account', width: 2.2 },
              { label: 'Date', kind: 'date', width: 1 },
              { label: 'Description', width: 3.6 },
              { label: 'Reference', width: 1.2 },
              { label: 'Debit', kind: 'money', width: 1.2 },
              { label: 'Credit', kind: 'money', width: 1.2 },
              { label: 'Balance', kind: 'money', width: 1.3 },
            ],
            rows: out.flatMap((x): Row[] => {
              const name = `${x.account.code} ${x.account.name}`;
              return [
                {
                  cells: [name, period.from, 'Opening balance', null, null, null, x.opening],
                  style: 'heading',
                },
                ...x.lines.map(
                  (l): Row => ({
                    cells: [name, l.date, l.description, l.reference, l.debit, l.credit, l.balance],
                  }),
                ),
                {
                  cells: [name, period.to, 'Closing balance', null, x.totalDebit, x.totalCredit, x.closing],
                  style: 'total',
                },
              ];
            }),
          },
        ],
      }),
  };
}
