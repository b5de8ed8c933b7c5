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
import type { Selectable } from 'kysely';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { money, toNumber, toSql } from '../../platform/money/money.ts';
import { vatRegisteredOn } from '../companies/index.ts';
import { ledgerCtxOf, type PostingLine, post, systemAccount } from '../ledger/index.ts';
import { touchAndAnnounce } from './announce.ts';
import { amountDue, lockInvoiceRow, settlements } from './invoices.queries.ts';
import { companyOf } from './invoices.service.ts';
import type { DepositForfeitsTable } from './invoices.tables.ts';
import { standardRate } from './vat.ts';

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
  const remaining = money(amountDue(row, (await settlements(ctx.db, ctx.tenantId, [id])).get(id)!));
  if (remaining.lessThanOrEqualTo(0))
    throw conflict(`Nothing is left of deposit ${row.number} to forfeit`, { code: 'NO_CREDIT_LEFT' });
  if (input.date < row.issue_date)
    throw badRequest('date', `must not be before the deposit (${row.issue_date})`);
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
      openItemId: row.id,
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
    })
    .execute();
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
