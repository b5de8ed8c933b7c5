// Balances as of a date: the entitlement of the cycle holding the date (leave.accrual.ts), less
// the approved days of requests starting in that cycle (booked ahead included: a day booked is
// a day no longer available), plus the adjustments effective in the cycle up to the date.
// Pending days are shown apart; a new request is checked against available − pending, so two
// pending requests cannot together overspend a balance.
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../platform/db/tenant.ts';
import { entitlement } from './leave.accrual.ts';
import { adjustedDays, daysByStatus, type EmployeeRow } from './leave.queries.ts';
import { LEAVE_TYPES, type LeaveType } from './payroll.tables.ts';

export interface BalanceFigures {
  type: LeaveType;
  entitled: Decimal | null;
  taken: Decimal;
  pending: Decimal;
  adjusted: Decimal;
  available: Decimal | null;
  cycleStart: string;
  cycleEnd: string | null;
}

export function termsOf(e: EmployeeRow) {
  return { startDate: e.start_date, endDate: e.end_date, daysPerWeek: String(e.days_per_week) };
}

/** One type's balance as of `asOf` (on or after the start date); `except`: a request left out. */
export async function balanceOf(
  tx: Tx,
  tenantId: string,
  e: EmployeeRow,
  type: LeaveType,
  asOf: string,
  except?: string,
): Promise<BalanceFigures> {
  const ent = entitlement(type, termsOf(e), asOf);
  const { approved, pending } = await daysByStatus(
    tx,
    tenantId,
    e.id,
    type,
    ent.cycleStart,
    ent.cycleEnd,
    except,
  );
  const adjusted = await adjustedDays(tx, tenantId, e.id, type, ent.cycleStart, asOf);
  return {
    type,
    entitled: ent.entitled,
    taken: approved,
    pending,
    adjusted,
    available: ent.entitled === null ? null : ent.entitled.minus(approved).plus(adjusted),
    cycleStart: ent.cycleStart,
    cycleEnd: ent.cycleEnd,
  };
}

export async function balancesOf(tx: Tx, tenantId: string, e: EmployeeRow, asOf: string) {
  const out: BalanceFigures[] = [];
  // One after another: a transaction is one connection.
  for (const type of LEAVE_TYPES) out.push(await balanceOf(tx, tenantId, e, type, asOf));
  return out;
}

export function balanceJson(b: BalanceFigures) {
  return {
    type: b.type,
    entitled: b.entitled === null ? null : b.entitled.toNumber(),
    taken: b.taken.toNumber(),
    pending: b.pending.toNumber(),
    adjusted: b.adjusted.toNumber(),
    available: b.available === null ? null : b.available.toNumber(),
    cycleStart: b.cycleStart,
    cycleEnd: b.cycleEnd,
  };
}
