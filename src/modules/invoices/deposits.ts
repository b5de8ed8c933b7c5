// Forfeiting a deposit (issue 14, item 7). A deposit is no supply while it is held: VAT Act s1
// excludes a deposit from "consideration" until it is applied as consideration or forfeited.
// Forfeited, what remained of it becomes income with its VAT, in one entry dated the forfeit:
//   Dr customer deposits (the deposit's open item)  what remained, VAT included
//   Cr forfeited deposits (4960)                     the net
//   Cr VAT output                                    the VAT: the tax fraction of what remained,
//                                                    rate/(100 + rate), 15/115 (14/114 before
//                                                    2018-04-01), half-up to cents
// The income and VAT lines carry the code standard at that rate, so the VAT report counts them in
// fields 1 and 4. A company not VAT-registered on the forfeit date accounts no VAT: all income.
// The deposit is `forfeited`; it is forfeited once, and nothing is left of it to apply or refund.
//
// What remains may sit in one of two places (issue 34, item 17). Before the deposit is applied it
// is the deposit's own open item. Applied to a smaller invoice, the deposit was applied whole and
// its excess became a customer credit (deposit_excess) on an open item of its own, partly drawn
// since, perhaps; what is left of that credit is then what the customer forfeits, debited on the
// credit's item (credit_id on the forfeit; the credit becomes `forfeited` too). The two do not
// both hold something: an application takes all the deposit's own remainder, and reversing it
// reverses the credit.

import type { Selectable } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { money, toNumber, toSql } from '../../platform/money/money.ts';
import { standardRate } from '../../platform/money/vat-rate.ts';
import { companyOf } from '../../platform/work/context.ts';
import { ledgerCtxOf, type PostingLine, post, systemAccount, vatRegisteredOn } from '../ledger/index.ts';
import { touchAndAnnounce } from './announce.ts';
import { lockCreditSource } from './credit-sources.ts';
import { settleCredit } from './customer-credits.ts';
import { creditLeft, lockInvoiceRow, settlements } from './invoices.queries.ts';
import type { DepositForfeitsTable } from './invoices.tables.ts';

export interface ForfeitInput {
  date: string;
  reason: string;
}

function toForfeit(r: Selectable<DepositForfeitsTable>) {
  return {
    id: r.id,
    depositId: r.deposit_id,
    date: r.date,
    amount: toNumber(r.amount),
    vatAmount: toNumber(r.vat_amount),
    netAmount: toNumber(money(r.amount).minus(r.vat_amount)),
    reason: r.reason,
    entryId: r.entry_id,
    createdAt: r.created_at.toISOString(),
  };
}

export async function forfeitDeposit(ctx: TenantCtx, id: string, input: ForfeitInput) {
  const companyId = companyOf(ctx);
  const row = await lockInvoiceRow(ctx.db, ctx.tenantId, companyId, id);
  if (!row) throw notFound('Document');
  if (row.document_type !== 'deposit')
    throw conflict('Only a deposit is forfeited', { code: 'NOT_A_DEPOSIT' });
  if (row.status !== 'paid')
    throw conflict(
      row.status === 'draft' ? 'The deposit is a draft; release it first' : `The deposit is ${row.status}`,
      { code: 'NOT_OPEN' },
    );
  const own = money(creditLeft(row, (await settlements(ctx.db, ctx.tenantId, [id])).get(id)!));
  // Nothing of its own left: what is left of its excess, locked after the deposit (the order an
  // application of the credit takes: invoice, then credit) so that nothing draws on it meanwhile.
  const excess = own.greaterThan(0) ? undefined : await excessOf(ctx, row.id);
  const remaining = excess ? excess.remaining : own;
  if (remaining.lessThanOrEqualTo(0))
    throw conflict(`Nothing is left of deposit ${row.number} to forfeit`, { code: 'NO_CREDIT_LEFT' });
  if (input.date < row.issue_date)
    throw badRequest('date', `must not be before the deposit (${row.issue_date})`);
  if (excess && input.date < excess.date)
    throw badRequest('date', `must not be before what is left of it became a credit (${excess.date})`);
  const registered = await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, input.date);
  const rate = standardRate(input.date);
  // The tax fraction (VAT 404): rate / (100 + rate) of the VAT-inclusive amount.
  const vat = registered ? remaining.times(rate).dividedBy(rate.plus(100)).toDecimalPlaces(2) : money(0);
  const tag = registered ? { taxCode: 'standard' as const, taxRate: rate } : {};
  const lctx = ledgerCtxOf(ctx);
  const description = `Deposit ${row.number} forfeited`;
  const lines: PostingLine[] = [
    {
      accountId: await systemAccount(lctx, companyId, 'customer_deposits'),
      debit: remaining,
      description,
      contactId: row.contact_id,
      openItemId: excess ? excess.id : row.id,
    },
    {
      accountId: await systemAccount(lctx, companyId, 'forfeited_deposits'),
      credit: remaining.minus(vat),
      description,
      ...tag,
    },
  ];
  if (!vat.isZero())
    lines.push({
      accountId: await systemAccount(lctx, companyId, 'vat_output'),
      credit: vat,
      description: `VAT ${rate.toNumber()}% on ${description.toLowerCase()}`,
      ...tag,
    });
  const forfeitId = crypto.randomUUID();
  const entryId = await post(lctx, {
    companyId,
    date: input.date,
    description,
    reference: row.number,
    source: { type: 'deposit_forfeit', id: forfeitId },
    lines,
  });
  await ctx.db
    .insertInto('deposit_forfeits')
    .values({
      tenant_id: ctx.tenantId,
      id: forfeitId,
      company_id: companyId,
      deposit_id: row.id,
      date: input.date,
      amount: toSql(remaining),
      vat_amount: toSql(vat),
      vat_rate: registered ? rate.toFixed(3) : null,
      reason: input.reason,
      entry_id: entryId,
      credit_id: excess ? excess.id : null,
    })
    .execute();
  if (excess) await settleCredit(ctx, excess.id);
  await ctx.db
    .updateTable('invoices')
    .set({ status: 'forfeited' })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', row.id)
    .execute();
  await touchAndAnnounce(ctx, row.id);
  ctx.reply.code(201);
  const saved = await ctx.db
    .selectFrom('deposit_forfeits')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', forfeitId)
    .executeTakeFirstOrThrow();
  return toForfeit(saved);
}

/** The live deposit_excess credit a deposit's application left, locked, with what remains of it. */
async function excessOf(ctx: TenantCtx, depositId: string) {
  const credit = await ctx.db
    .selectFrom('customer_credits')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('document_id', '=', depositId)
    .where('kind', '=', 'deposit_excess')
    .where('reversed_at', 'is', null)
    .executeTakeFirst();
  return credit ? lockCreditSource(ctx, credit.id) : undefined;
}
