// The bank payment file of a run: a CSV a bank's bulk-payment import reads, one row per bill.
// The account number is opened here and only here (it is sealed at rest and masked in every
// answer). The generic layout: payee name, account number, branch code, account type, amount
// (two decimals), reference (what the supplier's statement shows: the bill number, at most
// 20 characters, as SA banks allow), your reference (what the company's statement shows).
import { Decimal } from 'decimal.js';
import { CSV_CONTENT_TYPE, toCsv } from '../../platform/files/csv.ts';
import { FileResponse } from '../../platform/files/response.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { notFound } from '../../platform/http/problem.ts';
import { openSecret, secretKeysOf } from '../../platform/secrets/index.ts';
import { runItems, runRow } from './bills.payment-run.read.ts';

const COLUMNS = [
  'Payee name',
  'Account number',
  'Branch code',
  'Account type',
  'Amount',
  'Reference',
  'Your reference',
] as const;

/** GET /api/bills/payment-runs/{id}/file: the CSV, opened in the transaction and sent after it. */
export async function paymentRunFile(ctx: TenantCtx, id: string): Promise<FileResponse> {
  const run = await runRow(ctx, id);
  if (!run) throw notFound('Payment run');
  const keys = secretKeysOf(ctx.deps);
  const items = await runItems(ctx, id);
  const ours = `PAYRUN ${run.date}`;
  const rows = items.map((i) => ({
    cells: [
      i.payee,
      openSecret(keys, i.account_number_sealed),
      i.branch_code,
      i.account_type,
      new Decimal(i.amount),
      i.reference,
      ours,
    ],
  }));
  const csv = toCsv({
    title: 'Payment run',
    organisation: '',
    period: run.date,
    tables: [{ columns: COLUMNS.map((label) => ({ label })), rows }],
    filename: `payment-run-${run.date}-${run.bank_profile}`,
    generatedAt: ctx.deps.now(),
  });
  return new FileResponse(
    CSV_CONTENT_TYPE,
    `payment-run-${run.date}-${run.bank_profile}.csv`,
    async () => csv,
  );
}
