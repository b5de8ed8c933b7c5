// The payment run: the approved bills due by a date, grouped by supplier, with what cannot be
// paid and why; and paying a selection at once. Each bill gets its own payment record (its
// status moves as with a single payment) but the ledger gets ONE entry for the run: Dr
// creditors control per bill (the bill as the supplier's open item), Cr bank the total, which
// is how the bank statement shows a batch of EFTs released together.

import type { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import { addDays } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { money, toNumber, toSql } from '../../platform/money/money.ts';
import { secretKeysOf } from '../../platform/secrets/index.ts';
import { maskedAccountNumber } from '../../platform/secrets/masked.ts';
import { companyOf } from '../../platform/work/context.ts';
import { bankAccount, ledgerCtxOf, post } from '../ledger/index.ts';
import {
  actorOf,
  type BankDetailsRow,
  bankDetailsOf,
  changedWarning,
  pendingConfirmation,
} from './bills.bank-details.ts';
import { runRecord, runRow } from './bills.payment-run.read.ts';
import type {
  BlockedReason,
  PaymentRun,
  PaymentRunCreate,
  PaymentRunProposal,
} from './bills.payment-run.schemas.ts';
import { recordPayment } from './bills.payments.ts';
import { creditorsLine } from './bills.posting.ts';
import { amountDueOf, type BillRow, billSettlements } from './bills.queries.ts';
import { lockBill, today } from './bills.service.ts';

type Proposal = Static<typeof PaymentRunProposal>;
type Run = Static<typeof PaymentRun>;

interface Candidate {
  row: BillRow;
  due: Decimal;
  vendor: string;
  details: BankDetailsRow | undefined;
}

const PAYABLE = ['approved', 'partially_paid'] as const;

/** Why a bill cannot be paid now, or undefined. The bill's own state first, then the supplier's. */
export function blockOf(c: Candidate, now: Date): { reason: BlockedReason; warning: string } | undefined {
  if (c.row.on_hold) return { reason: 'on_hold', warning: `On hold: ${c.row.hold_reason}` };
  if (c.row.disputed)
    return { reason: 'disputed', warning: `Disputed with the supplier: ${c.row.dispute_reason}` };
  if (!c.details) {
    return {
      reason: 'no_bank_details',
      warning: `${c.vendor} has no bank details: capture them (PUT /api/contacts/{id}/bank-details) before paying`,
    };
  }
  if (pendingConfirmation(c.details, now))
    return { reason: 'bank_details_changed', warning: changedWarning(c.details) };
  return undefined;
}

/** These bills with what is due on each, their suppliers' names and bank details (four statements). */
async function candidates(ctx: TenantCtx, rows: BillRow[], lock = false): Promise<Candidate[]> {
  const ids = rows.map((r) => r.id);
  const contactIds = [...new Set(rows.map((r) => r.contact_id))];
  const settled = await billSettlements(ctx.db, ctx.tenantId, ids);
  const names = contactIds.length
    ? await ctx.db
        .selectFrom('contacts')
        .select(['id', 'name'])
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', 'in', contactIds)
        .execute()
    : [];
  const name = new Map(names.map((n) => [n.id, n.name]));
  // A run locks the details it pays to: a change cannot slip in between the check and the file.
  const details = await bankDetailsOf(ctx, contactIds, { lock });
  return rows.map((row) => ({
    row,
    due: money(amountDueOf(row, settled.get(row.id)!)),
    vendor: name.get(row.contact_id) ?? '',
    details: details.get(row.contact_id),
  }));
}

/** GET /api/bills/payment-run?dueBy=: what is due by the day, payable by supplier, and what is blocked. */
export async function proposePaymentRun(ctx: TenantCtx, dueBy: string | undefined): Promise<Proposal> {
  const by = dueBy ?? addDays(today(ctx), 7);
  const rows = await ctx.db
    .selectFrom('bills')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('deleted_at', 'is', null)
    .where('status', 'in', PAYABLE)
    .where('due_date', '<=', by)
    .orderBy('due_date')
    .orderBy('bill_number')
    .execute();
  const now = ctx.deps.now();
  const suppliers = new Map<string, Proposal['suppliers'][number] & { sum: Decimal }>();
  const blocked: Proposal['blocked'] = [];
  let total = money(0);
  for (const c of await candidates(ctx, rows)) {
    if (!c.due.greaterThan(0)) continue;
    const block = blockOf(c, now);
    if (block) {
      blocked.push({
        billId: c.row.id,
        vendor: c.vendor,
        contactId: c.row.contact_id,
        billNumber: c.row.bill_number,
        payee: c.details?.account_holder ?? c.vendor,
        blockedReason: block.reason,
        warning: block.warning,
        dueDate: c.row.due_date,
        amount: toNumber(c.due),
      });
      continue;
    }
    const d = c.details!;
    let s = suppliers.get(c.row.contact_id);
    if (!s) {
      s = {
        contactId: c.row.contact_id,
        payee: d.account_holder,
        bankName: d.bank_name,
        accountMasked: maskedAccountNumber(d.account_last4),
        total: 0,
        sum: money(0),
        bills: [],
      };
      suppliers.set(c.row.contact_id, s);
    }
    s.bills.push({
      billId: c.row.id,
      billNumber: c.row.bill_number,
      dueDate: c.row.due_date,
      amount: toNumber(c.due),
    });
    s.sum = s.sum.plus(c.due);
    total = total.plus(c.due);
  }
  return {
    dueBy: by,
    total: toNumber(total),
    suppliers: [...suppliers.values()]
      .map(({ sum, ...s }) => ({ ...s, total: toNumber(sum) }))
      .sort((a, b) => a.payee.localeCompare(b.payee)),
    blocked,
  };
}

/** The bank statement reference a supplier sees: the bill number, as most banks allow 20 characters. */
const statementRef = (s: string) => s.slice(0, 20);

/**
 * POST /api/bills/payment-run: pays each selected bill what is due on it. Every bill is checked
 * before anything is written: one that cannot be paid (blocked, not approved, nothing due)
 * refuses the whole run with 409 naming it, as a bank refuses a batch with a bad line.
 */
export async function createPaymentRun(ctx: TenantCtx, input: Static<typeof PaymentRunCreate>): Promise<Run> {
  const runId = input.clientId?.toLowerCase() ?? crypto.randomUUID();
  const replay = async () => {
    if (!input.clientId) return undefined;
    const found = await runRow(ctx, runId);
    if (found) ctx.reply.code(200);
    return found ? runRecord(ctx, found) : undefined;
  };
  const early = await replay();
  if (early) return early;
  // Locked in one order (by id), so two runs sharing bills cannot deadlock.
  const rows: BillRow[] = [];
  for (const id of [...input.billIds].sort()) rows.push(await lockBill(ctx, id));
  const again = await replay();
  if (again) return again;
  const companyId = companyOf(ctx);
  const now = ctx.deps.now();
  const all = await candidates(ctx, rows, true);
  const refused: { billId: string; billNumber: string; blockedReason: string; warning: string }[] = [];
  for (const c of all) {
    const block = blockOf(c, now);
    if (!PAYABLE.includes(c.row.status as (typeof PAYABLE)[number])) {
      throw conflict(
        `Bill ${c.row.bill_number} is ${c.row.status}: only an approved bill still owing is paid`,
        {
          code: 'NOT_APPROVED',
          billId: c.row.id,
        },
      );
    }
    if (block)
      refused.push({
        billId: c.row.id,
        billNumber: c.row.bill_number,
        blockedReason: block.reason,
        warning: block.warning,
      });
    if (input.date < c.row.issue_date)
      throw badRequest('date', `is before the issue date of bill ${c.row.bill_number}`);
  }
  if (refused.length) {
    throw conflict(
      `Not paid: ${refused.map((r) => `bill ${r.billNumber} (${r.blockedReason})`).join(', ')}. Leave ${
        refused.length === 1 ? 'it' : 'them'
      } out of the run, or clear the block first`,
      { code: 'PAYMENT_BLOCKED', blocked: refused },
    );
  }
  const owing = all.filter((c) => c.due.greaterThan(0));
  if (owing.length !== all.length) {
    const paid = all.find((c) => !c.due.greaterThan(0))!;
    throw conflict(`Bill ${paid.row.bill_number} has nothing left to pay`, {
      code: 'ALREADY_PAID',
      billId: paid.row.id,
    });
  }
  // Only a run the bank file can be made for: 503 naming SECRETS_KEY when this install has none.
  secretKeysOf(ctx.deps);
  // The order of the file and the entry: by supplier name, then due date.
  owing.sort(
    (a, b) =>
      a.details!.account_holder.localeCompare(b.details!.account_holder) ||
      a.row.due_date.localeCompare(b.row.due_date) ||
      a.row.bill_number.localeCompare(b.row.bill_number),
  );
  const bank = await bankAccount(ctx, companyId, input.bankAccountId);
  const total = owing.reduce((sum, c) => sum.plus(c.due), money(0));
  const debits = [];
  for (const c of owing) {
    debits.push({
      ...(await creditorsLine(ctx, c.row)),
      debit: c.due,
      description: `Bill ${c.row.bill_number}`,
    });
  }
  const entryId = await post(ledgerCtxOf(ctx), {
    companyId,
    date: input.date,
    description: `Payment run of ${input.date}: ${owing.length} bill${owing.length === 1 ? '' : 's'}`,
    reference: `Payment run ${input.date}`,
    source: { type: 'bill_payment_run', id: runId },
    lines: [...debits, { accountId: bank, credit: total, description: `Payment run of ${input.date}` }],
  });
  const actor = actorOf(ctx);
  await ctx.db
    .insertInto('bill_payment_runs')
    .values({
      tenant_id: ctx.tenantId,
      id: runId,
      company_id: companyId,
      date: input.date,
      bank_account_id: bank,
      bank_profile: input.bankProfile ?? 'generic',
      total: toSql(total),
      bill_count: owing.length,
      entry_id: entryId,
      created_by: actor.id,
      created_by_name: actor.name,
    })
    .execute();
  let lineNo = 0;
  for (const c of owing) {
    const d = c.details!;
    const payment = await recordPayment(ctx, c.row, {
      id: crypto.randomUUID(),
      amount: c.due,
      date: input.date,
      reference: `Payment run ${input.date}`,
      bankAccountId: bank,
      entryId,
      paymentRunId: runId,
    });
    // What the bank file needs, as it is now: a later change of details must not change what was paid.
    await ctx.db
      .insertInto('bill_payment_run_items')
      .values({
        tenant_id: ctx.tenantId,
        payment_id: payment.id,
        run_id: runId,
        line_no: ++lineNo,
        payee: d.account_holder,
        bank_name: d.bank_name,
        // Copied sealed (the key it names stays in SECRETS_KEY after a rotation, as the rule is).
        account_number_sealed: d.account_number_sealed,
        account_last4: d.account_last4,
        branch_code: d.branch_code,
        account_type: d.account_type,
        amount: toSql(c.due),
        reference: statementRef(c.row.bill_number),
      })
      .execute();
  }
  ctx.reply.code(201);
  return runRecord(ctx, (await runRow(ctx, runId))!);
}
