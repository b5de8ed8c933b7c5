// Advance payments (issue 14, item 7): money a customer pays on account before any invoice. The
// time of supply is when payment is received (VAT Act s9(1): the earlier of the invoice and any
// payment), so its VAT is output tax at once. One entry, dated the receipt:
//   Dr bank                          the amount
//   Cr income received in advance    the net: the customer and the credit as its open item
//   Cr VAT output                    the VAT: rate/(100 + rate) of the amount (15/115; 14/114
//                                    before 2018-04-01), half-up to cents
// Both credits are tagged standard at that rate, so the VAT report counts them in fields 1 and 4
// of the month received. Not VAT-registered on the date: no VAT part, nothing tagged.
// It is a customer credit (advance_payment) applied to invoices and refunded as any other; each
// draws its VAT back out in proportion (credit-sources.ts), so the VAT counts once: in the
// period received (an application cancels the invoice's own VAT in its period; a refund is a
// reduction of output tax, s21).

import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money, toSql } from '../../platform/money/money.ts';
import { standardRate } from '../../platform/money/vat-rate.ts';
import { companyOf } from '../../platform/work/context.ts';
import {
  bankAccount,
  ledgerCtxOf,
  type PostingLine,
  post,
  systemAccount,
  vatRegisteredOn,
} from '../ledger/index.ts';
import { getCredit, insertCredit } from './customer-credits.ts';
import { assertContact } from './invoices.service.ts';

export interface AdvancePaymentInput {
  contactId: string;
  date: string;
  amount: number;
  bankAccountId?: string | undefined;
  reference?: string | undefined;
  clientId?: string | undefined;
}

export async function recordAdvancePayment(ctx: TenantCtx, input: AdvancePaymentInput) {
  const companyId = companyOf(ctx);
  const id = input.clientId?.toLowerCase() ?? crypto.randomUUID();
  if (input.clientId) {
    const existing = await ctx.db
      .selectFrom('customer_credits')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (existing) {
      ctx.reply.code(200);
      return getCredit(ctx, id);
    }
  }
  await assertContact(ctx, input.contactId);
  const amount = money(input.amount);
  if (!hasAtMostDecimals(amount, 2)) throw badRequest('amount', 'must have at most two decimals');
  const bank = await bankAccount(ctx, companyId, input.bankAccountId);
  const registered = await vatRegisteredOn(ctx.db, ctx.tenantId, companyId, input.date);
  const rate = standardRate(input.date);
  const vat = registered ? amount.times(rate).dividedBy(rate.plus(100)).toDecimalPlaces(2) : money(0);
  const tag = registered ? { taxCode: 'standard' as const, taxRate: rate } : {};
  const lctx = ledgerCtxOf(ctx);
  const inAdvance = await systemAccount(lctx, companyId, 'income_in_advance');
  const description = 'Advance payment received';
  const lines: PostingLine[] = [
    { accountId: bank, debit: amount, description },
    {
      accountId: inAdvance,
      credit: amount.minus(vat),
      description,
      contactId: input.contactId,
      openItemId: id,
      ...tag,
    },
  ];
  if (!vat.isZero())
    lines.push({
      accountId: await systemAccount(lctx, companyId, 'vat_output'),
      credit: vat,
      description: `VAT ${rate.toNumber()}% on advance payment`,
      ...tag,
    });
  const entryId = await post(lctx, {
    companyId,
    date: input.date,
    description,
    reference: input.reference ?? null,
    source: { type: 'advance_payment', id },
    lines,
  });
  ctx.reply.code(201);
  return insertCredit(ctx, id, {
    kind: 'advance_payment',
    companyId,
    contactId: input.contactId,
    date: input.date,
    amount: toSql(amount),
    vatAmount: toSql(vat),
    vatRate: registered ? rate.toFixed(3) : null,
    accountId: inAdvance,
    bankAccountId: bank,
    reference: input.reference ?? null,
    entryId,
  });
}
