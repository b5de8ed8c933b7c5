// The reconciliation report of a bank account at a date. The identity it ties out by:
//
//   statement (opening + bank lines to asOf) - unreconciled bank lines + unmatched ledger movements
//     = ledger balance of the account at asOf
//
// A bank line counts as reconciled at asOf when it has a live match whose entries are all dated
// on or before asOf; its entries then count as matched. Every other bank line to asOf is
// unreconciled, every other movement of the account to asOf unmatched (the opening balance entry
// is the statement's opening, never an item). statementBalance is what the bank said (the last
// line's running balance), which may differ from opening + lines when a statement had a gap.

import { sql } from 'kysely';
import { dayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { money, sum, toNumber } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { bankAccountOf } from './bank-accounts.service.ts';

export async function reconciliationReport(
  ctx: TenantCtx,
  query: { bankAccountId: string; asOf?: string | undefined },
) {
  const companyId = companyOf(ctx);
  const account = await bankAccountOf(ctx.db, ctx.tenantId, companyId, query.bankAccountId);
  const asOf = query.asOf ?? dayOf(ctx.deps.now());
  const acc = await ctx.db
    .selectFrom('bank_accounts')
    .select(['opening_balance', 'opening_date', 'opening_entry_id'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', account.id)
    .executeTakeFirstOrThrow();
  const lines = await sql<{
    id: string;
    date: string;
    amount: string;
    description: string;
    running_balance: string | null;
    matched: boolean;
  }>`
    select t.id, t.date::text as date, t.amount::text as amount, t.description, t.running_balance::text as running_balance,
           exists (select 1 from bank_matches m where m.tenant_id = t.tenant_id and m.bank_transaction_id = t.id
                     and m.undone_at is null
                     and not exists (select 1 from bank_match_items i join journal_entries e
                                       on e.tenant_id = i.tenant_id and e.id = i.journal_entry_id
                                      where i.tenant_id = m.tenant_id and i.match_id = m.id and e.date > ${asOf}::date)) as matched
      from bank_transactions t
     where t.tenant_id = ${ctx.tenantId} and t.company_id = ${companyId} and t.bank_account_id = ${account.id}
       and t.date <= ${asOf}::date and not t.pending and t.superseded_at is null
     order by t.date, t.sequence, t.created_at`.execute(ctx.db);
  const matchedLines = new Set(lines.rows.filter((l) => l.matched).map((l) => l.id));
  const movements = await sql<{
    entry_id: string;
    date: string;
    description: string;
    moved: string;
    claimed_by: string | null;
  }>`
    select l.entry_id, e.date::text as date, e.description, sum(l.debit - l.credit)::text as moved,
           (select m.bank_transaction_id from bank_match_items i join bank_matches m
               on m.tenant_id = i.tenant_id and m.id = i.match_id
             where i.tenant_id = l.tenant_id and i.journal_entry_id = l.entry_id
               and i.bank_account_id = l.account_id and i.undone_at is null limit 1) as claimed_by
      from journal_lines l join journal_entries e on e.tenant_id = l.tenant_id and e.id = l.entry_id
     where l.tenant_id = ${ctx.tenantId} and l.company_id = ${companyId} and l.account_id = ${account.id}
       and l.date <= ${asOf}::date
     group by l.tenant_id, l.account_id, l.entry_id, e.date, e.description
     order by e.date, l.entry_id`.execute(ctx.db);
  const openingCounts = !acc.opening_date || acc.opening_date <= asOf;
  const opening = openingCounts ? money(acc.opening_balance) : money(0);
  const ledger = sum(movements.rows.map((m) => m.moved));
  const unreconciled = lines.rows.filter((l) => !l.matched);
  const unmatched = movements.rows.filter(
    (m) =>
      !(m.entry_id === acc.opening_entry_id) &&
      !(m.claimed_by && matchedLines.has(m.claimed_by)) &&
      !money(m.moved).isZero(),
  );
  const linesBalance = opening.plus(sum(lines.rows.map((l) => l.amount)));
  const last = lines.rows.at(-1);
  const statement = last?.running_balance != null ? money(last.running_balance) : linesBalance;
  const unreconciledTotal = sum(unreconciled.map((l) => l.amount));
  const unmatchedTotal = sum(unmatched.map((m) => m.moved));
  return {
    bankAccountId: account.id,
    asOf,
    statementBalance: toNumber(statement),
    statementLinesBalance: toNumber(linesBalance),
    ledgerBalance: toNumber(ledger),
    unreconciledTotal: toNumber(unreconciledTotal),
    unmatchedLedgerTotal: toNumber(unmatchedTotal),
    difference: toNumber(linesBalance.minus(unreconciledTotal).plus(unmatchedTotal).minus(ledger)),
    unreconciled: unreconciled.map((l) => ({
      date: l.date,
      amount: toNumber(l.amount),
      description: l.description,
      bankTransactionId: l.id,
      journalEntryId: null,
    })),
    unmatchedLedger: unmatched.map((m) => ({
      date: m.date,
      amount: toNumber(m.moved),
      description: m.description,
      bankTransactionId: null,
      journalEntryId: m.entry_id,
    })),
  };
}
