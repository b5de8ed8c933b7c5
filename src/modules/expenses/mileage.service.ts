// Mileage: trips in a private car, reimbursed per km. The rate is SARS's prescribed rate per km
// for the trip's date (the simplified method; Income Tax Act s8(1)(b)(ii), the Minister's notice;
// SARS PAYE-GEN-01-G03-A01), from the date-effective table seeded in migration 0038, or the
// tenant's own rate when it is lower. amount = km × rate, half-up to the cent. No VAT: there is no
// tax invoice for the use of one's own car. Approved like a claim (expenses.policy.ts), posting
//   Dr Travel: local (mileage) 6660, Cr Employee reimbursements payable 2150 (the employee).

import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { cents, hasAtMostDecimals, Money, money, toNumber, toSql } from '../../platform/money/money.ts';
import { companyOf, today } from '../../platform/work/context.ts';
import { ledgerCtxOf, post, systemAccount } from '../ledger/index.ts';
import { addApproval } from './expenses.policy.ts';
import { counterLine, postReimbursement } from './expenses.posting.ts';
import { assertEmployee, makerOf } from './expenses.shared.ts';
import type { ClaimStatus, MileageTripsTable } from './expenses.tables.ts';
import type { MileageCreate, MileageListQuery, MileageRate, MileageTrip } from './mileage.schemas.ts';

type TripRow = Selectable<MileageTripsTable>;
type TripRecord = Static<typeof MileageTrip>;
type Ctx = TenantCtx;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function tripRecord(r: TripRow): TripRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    companyId: r.company_id,
    contactId: r.contact_id,
    date: r.date,
    km: Number(r.km),
    purpose: r.purpose,
    from: r.from_place,
    to: r.to_place,
    vehicle: r.vehicle,
    ratePerKm: toNumber(r.rate_per_km),
    rateEffectiveFrom: r.rate_effective_from,
    rateSource: r.rate_source,
    amount: toNumber(r.amount),
    status: r.status,
    approvals: r.approvals,
    rejectionReason: r.rejection_reason,
    entryId: r.entry_id,
    reimbursementEntryId: r.reimbursement_entry_id,
    reimbursedAt: iso(r.reimbursed_at),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

/** SARS's rate of `date`: the last one that took effect on or before it. */
async function sarsRate(ctx: Pick<Ctx, 'db'>, date: string) {
  return ctx.db
    .selectFrom('mileage_rates')
    .selectAll()
    .where('effective_from', '<=', date)
    .orderBy('effective_from', 'desc')
    .limit(1)
    .executeTakeFirst();
}

async function tenantRate(ctx: Pick<Ctx, 'db' | 'tenantId'>) {
  const r = await ctx.db
    .selectFrom('mileage_settings')
    .select('rate_per_km')
    .where('tenant_id', '=', ctx.tenantId)
    .executeTakeFirst();
  return r?.rate_per_km ? money(r.rate_per_km) : null;
}

/** The rate a trip of `date` is paid at, and where it came from. */
export async function rateFor(ctx: Pick<Ctx, 'db' | 'tenantId'>, date: string, field = 'date') {
  const sars = await sarsRate(ctx, date);
  if (!sars)
    throw badRequest(
      field,
      'no SARS rate per km is held for a trip this early (the table starts 2023-03-01)',
    );
  const own = await tenantRate(ctx);
  if (own?.lessThan(money(sars.rate_per_km)))
    return { rate: own, effectiveFrom: null, source: 'tenant' as const };
  return { rate: money(sars.rate_per_km), effectiveFrom: sars.effective_from, source: 'sars' as const };
}

export async function getMileageRate(ctx: Ctx): Promise<Static<typeof MileageRate>> {
  const rates = await ctx.db.selectFrom('mileage_rates').selectAll().orderBy('effective_from').execute();
  const current = (await sarsRate(ctx, today(ctx))) ?? rates[rates.length - 1]!;
  const own = await tenantRate(ctx);
  const sars = money(current.rate_per_km);
  return {
    ratePerKm: own ? toNumber(own) : null,
    sarsRatePerKm: toNumber(sars),
    sarsEffectiveFrom: current.effective_from,
    sarsSource: current.source,
    effectiveRatePerKm: toNumber(own?.lessThan(sars) ? own : sars),
    rates: rates.map((r) => ({
      effectiveFrom: r.effective_from,
      ratePerKm: toNumber(r.rate_per_km),
      source: r.source,
    })),
  };
}

/** PUT /api/mileage/rate: the tenant's own rate, at most SARS's current one (null: SARS's). */
export async function putMileageRate(ctx: Ctx, input: { ratePerKm: number | null }) {
  if (input.ratePerKm !== null) {
    if (!hasAtMostDecimals(input.ratePerKm, 2)) throw badRequest('ratePerKm', 'at most two decimals (cents)');
    const current = await sarsRate(ctx, today(ctx));
    if (current && money(input.ratePerKm).greaterThan(money(current.rate_per_km)))
      throw badRequest(
        'ratePerKm',
        `above SARS's rate of R${money(current.rate_per_km).toFixed(2)} per km (from ${current.effective_from}): ` +
          'a higher reimbursement is taxable as a travel allowance; set it at or below',
      );
  }
  const value = input.ratePerKm === null ? null : toSql(input.ratePerKm);
  await ctx.db
    .insertInto('mileage_settings')
    .values({ tenant_id: ctx.tenantId, rate_per_km: value })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ rate_per_km: value, updated_at: new Date() }))
    .execute();
  return getMileageRate(ctx);
}

async function findTrip(ctx: Ctx, id: string, lock = false) {
  const q = ctx.db
    .selectFrom('mileage_trips')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  const row = await (lock ? q.forUpdate() : q).executeTakeFirst();
  if (!row) throw notFound('Mileage trip');
  return row;
}

export async function getTrip(ctx: Ctx, id: string): Promise<TripRecord> {
  return tripRecord(await findTrip(ctx, id));
}

/** POST /api/mileage: 201 with the submitted trip, 200 with the one a repeated clientId made. */
export async function createTrip(ctx: Ctx, input: Static<typeof MileageCreate>): Promise<TripRecord> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'mileage_trips',
    owner: ['company_id', companyId],
  });
  if (replay) {
    ctx.reply.code(200);
    const r = await ctx.db
      .selectFrom('mileage_trips')
      .selectAll()
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return tripRecord(r);
  }
  if (!hasAtMostDecimals(input.km, 1)) throw badRequest('km', 'at most one decimal');
  if (input.contactId) await assertEmployee(ctx, input.contactId);
  const rate = await rateFor(ctx, input.date);
  const amount = cents(new Money(input.km).times(rate.rate));
  const row = await ctx.db
    .insertInto('mileage_trips')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: input.contactId ?? null,
      date: input.date,
      km: String(input.km),
      purpose: input.purpose.trim(),
      from_place: input.from ?? null,
      to_place: input.to ?? null,
      vehicle: input.vehicle ?? null,
      rate_per_km: toSql(rate.rate),
      rate_effective_from: rate.effectiveFrom,
      rate_source: rate.source,
      amount: toSql(amount),
      status: 'submitted',
      created_by: makerOf(ctx),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  ctx.reply.code(201);
  return tripRecord(row);
}

export async function listTrips(ctx: Ctx, query: Static<typeof MileageListQuery>): Promise<Page<TripRecord>> {
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  const p = paging(query);
  let q = ctx.db
    .selectFrom('mileage_trips')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.contactId) q = q.where('contact_id', '=', query.contactId);
  if (query.from) q = q.where('date', '>=', query.from);
  if (query.to) q = q.where('date', '<=', query.to);
  const { n } = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  return pageOf(rows.map(tripRecord), Number(n), p);
}

async function setTrip(ctx: Ctx, id: string, set: Record<string, unknown>) {
  const r = await ctx.db
    .updateTable('mileage_trips')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return tripRecord(r);
}

/** POST /api/mileage/{id}/approve: the claim rules; on the last approval it is posted. */
export async function approveTrip(ctx: Ctx, id: string): Promise<TripRecord> {
  const row = await findTrip(ctx, id, true);
  const { approvals, final } = await addApproval(ctx, {
    kind: 'trip',
    status: row.status,
    amount: money(row.amount),
    createdBy: row.created_by,
    contactId: row.contact_id,
    approvals: row.approvals,
  });
  const set: Record<string, unknown> = {
    status: 'partially_approved' as ClaimStatus,
    approvals: JSON.stringify(approvals),
  };
  if (final) {
    const label = `Mileage ${Number(row.km)} km: ${row.purpose}`;
    const amount = money(row.amount);
    const lctx = ledgerCtxOf(ctx);
    set.entry_id = await post(lctx, {
      companyId: row.company_id,
      date: row.date,
      description: label,
      source: { type: 'mileage_trip', id: row.id },
      lines: [
        {
          accountId: await systemAccount(lctx, row.company_id, 'travel_local'),
          debit: amount,
          description: label,
        },
        {
          ...(await counterLine(ctx, row.company_id, 'personal', row.contact_id)),
          credit: amount,
          description: label,
        },
      ],
    });
    set.status = 'approved';
    set.approved_at = ctx.deps.now();
  }
  return setTrip(ctx, id, set);
}

export async function rejectTrip(ctx: Ctx, id: string, reason: string): Promise<TripRecord> {
  const row = await findTrip(ctx, id, true);
  if (row.status !== 'submitted' && row.status !== 'partially_approved')
    throw conflict(`Only a trip awaiting approval is rejected; this one is ${row.status}`, {
      code: 'NOT_AWAITING_APPROVAL',
    });
  return setTrip(ctx, id, {
    status: 'rejected',
    rejection_reason: reason.trim(),
    rejected_at: ctx.deps.now(),
  });
}

export async function reimburseTrip(
  ctx: Ctx,
  id: string,
  input: { date: string; bankAccountId?: string | undefined },
): Promise<TripRecord> {
  const row = await findTrip(ctx, id, true);
  const entryId = await postReimbursement(
    ctx,
    {
      kind: 'trip',
      id,
      companyId: row.company_id,
      status: row.status,
      paidWith: 'personal',
      date: row.date,
      amount: money(row.amount),
      contactId: row.contact_id,
      label: `Mileage ${Number(row.km)} km: ${row.purpose}`,
    },
    input,
  );
  return setTrip(ctx, id, {
    status: 'reimbursed',
    reimbursement_entry_id: entryId,
    reimbursement_date: input.date,
    reimbursed_at: ctx.deps.now(),
  });
}
