// Undoing a bad-debt write-off or a recovery (issue 14): the entry is reversed on its own date,
// as a payment's reversal is, and the row stays, marked reversed. What the write-off took is due
// again and its VAT claim (field 17) is cancelled by the reversal's tagged lines; an undone
// recovery is recoverable again and its output tax (field 12) is cancelled. A write-off cannot be
// undone while money recovered on it would be more than what stays written off (reverse the
// recovery first): recoveries are only ever of what was written off.

import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict, notFound } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { companyOf } from '../../platform/work/context.ts';
import { ledgerCtxOf, reverse } from '../ledger/index.ts';
import { findInvoiceRow, lockInvoiceRow } from './invoices.queries.ts';
import { settle } from './settle.ts';
import {
  type BadDebtTable,
  findRecovery,
  findWriteOff,
  liveTotals,
  type RecoveryRow,
  toRecovery,
  toWriteOff,
  type WriteOffRow,
} from './write-off.ts';

/** The document's write-offs or its recoveries, undone ones included, oldest first: one query. */
async function listRows(ctx: TenantCtx, invoiceId: string, table: BadDebtTable) {
  const invoice = await findInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!invoice) throw notFound('Document');
  return ctx.db
    .selectFrom(table as 'invoice_write_offs')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('date')
    .orderBy('created_at')
    .execute();
}

export async function listWriteOffs(ctx: TenantCtx, invoiceId: string) {
  return (await listRows(ctx, invoiceId, 'invoice_write_offs')).map((r) => toWriteOff(r as WriteOffRow));
}

export async function listRecoveries(ctx: TenantCtx, invoiceId: string) {
  return (await listRows(ctx, invoiceId, 'invoice_bad_debt_recoveries')).map((r) =>
    toRecovery(r as unknown as RecoveryRow),
  );
}

async function ownRow(ctx: TenantCtx, table: BadDebtTable, invoiceId: string, id: string) {
  const r = await ctx.db
    .selectFrom(table as 'invoice_write_offs')
    .select(['id', 'entry_id', 'amount', 'reversed_at'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r;
}

export async function reverseWriteOff(ctx: TenantCtx, invoiceId: string, writeOffId: string) {
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!invoice) throw notFound('Document');
  const w = await ownRow(ctx, 'invoice_write_offs', invoiceId, writeOffId);
  if (!w) throw notFound('Write-off');
  if (w.reversed_at) throw conflict('This write-off has been undone already', { code: 'ALREADY_REVERSED' });
  const stays = money((await liveTotals(ctx, 'invoice_write_offs', invoiceId)).amount).minus(w.amount);
  const recovered = money((await liveTotals(ctx, 'invoice_bad_debt_recoveries', invoiceId)).amount);
  if (recovered.greaterThan(stays))
    throw conflict(
      `${recovered.toFixed(2)} was recovered on this document's bad debt, more than the ` +
        `${stays.toFixed(2)} that would stay written off: reverse the recovery first`,
      { code: 'WRITE_OFF_RECOVERED' },
    );
  const reversal = await reverse(ledgerCtxOf(ctx), w.entry_id, {
    description: `Write-off of ${invoice.number} undone`,
  });
  await ctx.db
    .updateTable('invoice_write_offs')
    .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', writeOffId)
    .execute();
  // Due again: written_off → open or partially paid, announced as invoice.updated.
  await settle(ctx, invoice, 'reversal');
  return toWriteOff(await findWriteOff(ctx, writeOffId));
}

export async function reverseRecovery(ctx: TenantCtx, invoiceId: string, recoveryId: string) {
  const invoice = await lockInvoiceRow(ctx.db, ctx.tenantId, companyOf(ctx), invoiceId);
  if (!invoice) throw notFound('Document');
  const r = await ownRow(ctx, 'invoice_bad_debt_recoveries', invoiceId, recoveryId);
  if (!r) throw notFound('Recovery');
  if (r.reversed_at) throw conflict('This recovery has been undone already', { code: 'ALREADY_REVERSED' });
  const reversal = await reverse(ledgerCtxOf(ctx), r.entry_id, {
    description: `Bad debt recovery on ${invoice.number} undone`,
  });
  await ctx.db
    .updateTable('invoice_bad_debt_recoveries')
    .set({ reversed_at: ctx.deps.now(), reversal_entry_id: reversal })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', recoveryId)
    .execute();
  // The document does not change (it stays written off), as when the recovery was recorded.
  return toRecovery(await findRecovery(ctx, recoveryId));
}
