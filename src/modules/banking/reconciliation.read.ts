// Reading a match: the bank line it reconciles and what it recorded or linked.

import { notFound } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';

export async function getMatch(ctx: Pick<WorkCtx, 'db' | 'tenantId' | 'companyId'>, id: string) {
  const m = await ctx.db
    .selectFrom('bank_matches')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!m) throw notFound('Match');
  const items = await ctx.db
    .selectFrom('bank_match_items as i')
    .leftJoin('invoice_payments as p', (j) =>
      j.onRef('p.tenant_id', '=', 'i.tenant_id').onRef('p.id', '=', 'i.invoice_payment_id'),
    )
    .leftJoin('bill_payments as bp', (j) =>
      j.onRef('bp.tenant_id', '=', 'i.tenant_id').onRef('bp.id', '=', 'i.bill_payment_id'),
    )
    .select([
      'i.line_no',
      'i.journal_entry_id',
      'i.invoice_payment_id',
      'p.invoice_id',
      'i.bill_payment_id',
      'bp.bill_id',
      'i.customer_credit_id',
      'i.amount',
    ])
    .where('i.tenant_id', '=', ctx.tenantId)
    .where('i.match_id', '=', id)
    .orderBy('i.line_no')
    .execute();
  return {
    id: m.id,
    bankTransactionId: m.bank_transaction_id,
    bankAccountId: m.bank_account_id,
    kind: m.kind,
    amount: toNumber(m.amount),
    auto: m.auto,
    status: m.undone_at ? ('undone' as const) : ('live' as const),
    items: items.map((i) => ({
      journalEntryId: i.journal_entry_id,
      invoicePaymentId: i.invoice_payment_id,
      invoiceId: i.invoice_id,
      billPaymentId: i.bill_payment_id,
      billId: i.bill_id,
      customerCreditId: i.customer_credit_id,
      amount: toNumber(i.amount),
    })),
    createdAt: m.created_at.toISOString(),
    undoneAt: m.undone_at?.toISOString() ?? null,
  };
}

export type Match = Awaited<ReturnType<typeof getMatch>>;
