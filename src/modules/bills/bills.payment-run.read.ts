// Reading payment runs: one, the company's list, and the items the bank file is made from.
// The sealed account numbers are never opened here: answers show them masked.

import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { notFound } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { maskedAccountNumber } from '../../platform/secrets/masked.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { PaymentRun } from './bills.payment-run.schemas.ts';

type Run = Static<typeof PaymentRun>;

export function runRow(ctx: TenantCtx, id: string) {
  return ctx.db
    .selectFrom('bill_payment_runs')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .executeTakeFirst();
}

type RunRow = NonNullable<Awaited<ReturnType<typeof runRow>>>;

/** The run's items with their payments and bills, in the file's order. */
export function runItems(ctx: TenantCtx, runIds: string | string[]) {
  const ids = typeof runIds === 'string' ? [runIds] : runIds;
  return ctx.db
    .selectFrom('bill_payment_run_items as i')
    .innerJoin('bill_payments as p', (j) =>
      j.onRef('p.tenant_id', '=', 'i.tenant_id').onRef('p.id', '=', 'i.payment_id'),
    )
    .innerJoin('bills as b', (j) =>
      j.onRef('b.tenant_id', '=', 'p.tenant_id').onRef('b.id', '=', 'p.bill_id'),
    )
    .select([
      'i.payment_id',
      'i.payee',
      'i.bank_name',
      'i.account_number_sealed',
      'i.account_last4',
      'i.branch_code',
      'i.account_type',
      'i.amount',
      'i.reference',
      'b.id as bill_id',
      'b.bill_number',
      'b.contact_id',
    ])
    .where('i.tenant_id', '=', ctx.tenantId)
    .select('i.run_id')
    .where('i.run_id', 'in', ids)
    .orderBy('i.line_no')
    .execute();
}

export async function runRecord(ctx: TenantCtx, run: RunRow): Promise<Run> {
  return toRun(run, await runItems(ctx, run.id));
}

function toRun(run: RunRow, items: Awaited<ReturnType<typeof runItems>>): Run {
  return {
    id: run.id,
    date: run.date,
    bankAccountId: run.bank_account_id,
    bankProfile: run.bank_profile,
    total: toNumber(run.total),
    count: run.bill_count,
    entryId: run.entry_id,
    createdBy: run.created_by_name,
    createdAt: run.created_at.toISOString(),
    payments: items.map((i) => ({
      paymentId: i.payment_id,
      billId: i.bill_id,
      billNumber: i.bill_number,
      contactId: i.contact_id,
      payee: i.payee,
      // The sealed number is opened for the bank file only, never for an answer.
      accountMasked: maskedAccountNumber(i.account_last4),
      amount: toNumber(i.amount),
    })),
    fileUrl: `/api/bills/payment-runs/${run.id}/file`,
  };
}

/** GET /api/bills/payment-runs: the company's runs, newest first, paged; their items in one statement. */
export async function listPaymentRuns(
  ctx: TenantCtx,
  query: { page?: number | undefined; limit?: number | undefined },
): Promise<Page<Run>> {
  const p = paging(query);
  const q = ctx.db
    .selectFrom('bill_payment_runs')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const runs = await q
    .selectAll()
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  const items = runs.length
    ? await runItems(
        ctx,
        runs.map((r) => r.id),
      )
    : [];
  return pageOf(
    runs.map((r) =>
      toRun(
        r,
        items.filter((i) => i.run_id === r.id),
      ),
    ),
    Number(n),
    p,
  );
}

/** GET /api/bills/payment-runs/{id}. */
export async function getPaymentRun(ctx: TenantCtx, id: string): Promise<Run> {
  const run = await runRow(ctx, id);
  if (!run) throw notFound('Payment run');
  return runRecord(ctx, run);
}
