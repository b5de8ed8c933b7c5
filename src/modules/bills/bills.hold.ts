// Hold and dispute: an approved bill the business will not pay yet. A hold is the business's
// own ("wait for the delivery note"); a dispute is with the supplier ("short-delivered").
// Either stops payment, as Xero's and Sage's users expect of a hold: the payment run lists
// the bill as blocked and refuses it if selected, and a single payment (POST
// /api/bills/{id}/payments) is refused too (409 ON_HOLD / DISPUTED) until released/resolved.
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import type { BillRecord, BillRow } from './bills.queries.ts';
import { lockBill, recordOf } from './bills.service.ts';

type Flag = 'hold' | 'dispute';

const PAYABLE = ['approved', 'partially_paid'];

/** 409 ON_HOLD or DISPUTED when a held or disputed bill is about to be paid. */
export function assertNotHeld(row: BillRow): void {
  if (row.on_hold) {
    throw conflict(
      `Bill ${row.bill_number} is on hold (${row.hold_reason}): release the hold before paying it`,
      {
        code: 'ON_HOLD',
        billId: row.id,
      },
    );
  }
  if (row.disputed) {
    throw conflict(
      `Bill ${row.bill_number} is disputed (${row.dispute_reason}): resolve the dispute before paying it`,
      {
        code: 'DISPUTED',
        billId: row.id,
      },
    );
  }
}

async function setFlag(ctx: TenantCtx, id: string, flag: Flag, reason: string | null): Promise<BillRecord> {
  const row = await lockBill(ctx, id);
  if (!PAYABLE.includes(row.status)) {
    throw conflict(`Only an approved bill still owing is held or disputed; this one is ${row.status}`, {
      code: 'NOT_APPROVED',
    });
  }
  const on = reason !== null;
  const current = flag === 'hold' ? row.on_hold : row.disputed;
  if (current === on) {
    throw conflict(
      on
        ? `Bill ${row.bill_number} is ${flag === 'hold' ? 'on hold' : 'disputed'} already`
        : `Bill ${row.bill_number} is not ${flag === 'hold' ? 'on hold' : 'disputed'}`,
      { code: 'CONFLICT' },
    );
  }
  const updated = await ctx.db
    .updateTable('bills')
    .set(flag === 'hold' ? { on_hold: on, hold_reason: reason } : { disputed: on, dispute_reason: reason })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return recordOf(ctx, updated);
}

export const holdBill = (ctx: TenantCtx, id: string, reason: string) =>
  setFlag(ctx, id, 'hold', reason.trim());
export const releaseHold = (ctx: TenantCtx, id: string) => setFlag(ctx, id, 'hold', null);
export const disputeBill = (ctx: TenantCtx, id: string, reason: string) =>
  setFlag(ctx, id, 'dispute', reason.trim());
export const resolveDispute = (ctx: TenantCtx, id: string) => setFlag(ctx, id, 'dispute', null);
