// Finalising and paying a period, and its EMP201 figures.
// Finalise (calculated → finalised, locked) posts ONE entry, dated the period's end:
//   Dr 6500 Salaries and wages      gross cash + the employer's retirement and medical (fringe)
//   Dr 6510 UIF: employer           the employer's UIF
//   Dr 6520 SDL                     the levy
//   Cr 2300 PAYE payable            PAYE less the ETI claimed against it (EMP201: the ETI reduces
//                                   what is paid to SARS; a Dr if the ETI exceeds the PAYE)
//   Cr 4910 Employment tax incentive  the ETI (other income: the incentive is the employer's gain)
//   Cr 2310 UIF payable             the employees' and the employer's UIF
//   Cr 2320 SDL payable             the levy
//   Cr 2340 Retirement fund payable the employees' and the employer's contributions
//   Cr 2350 Medical aid payable     the employees' and the employer's contributions
//   Cr 2360 Payroll deductions payable  other deductions
//   Cr 2330 Salaries payable        net pay
// It balances: gross = net + PAYE + UIF ee + retirement ee + medical ee + other deductions.
// Pay (finalised → paid) posts Dr 2330 net / Cr the bank account, dated the pay date, and emits
// payroll.run.paid once: the run's dates, employee count and totals, never an employee's pay.

import type { Decimal } from 'decimal.js';
import { emit } from '../../platform/events/outbox.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict } from '../../platform/http/problem.ts';
import { money, sum, toNumber } from '../../platform/money/money.ts';
import { bankAccount, ledgerCtxOf, type PostingLine, post, systemAccount } from '../ledger/index.ts';
import { periodFinalised, periodRow, readPeriod } from './pay-runs.service.ts';

type Ctx = TenantCtx;

function actorId(ctx: Ctx): string | null {
  const p = ctx.principal as { type: string; userId?: string; keyId?: string };
  return p.type === 'user' ? (p.userId ?? null) : p.type === 'api_key' ? (p.keyId ?? null) : null;
}

export async function finalisePeriod(ctx: Ctx, id: string) {
  const row = await periodRow(ctx, id, true);
  if (row.status === 'finalised' || row.status === 'paid') throw periodFinalised(row.status);
  if (row.status !== 'calculated')
    throw conflict('The period is not calculated: POST /calculate first', { field: 'status' });
  const lctx = ledgerCtxOf(ctx);
  const acct = (key: string) => systemAccount(lctx, row.company_id, key);
  const m = (v: string) => money(v);
  const label = `Payroll ${row.frequency} ${row.period_start} to ${row.period_end}`;
  const dr = (accountId: string, amount: Decimal, description: string): PostingLine =>
    amount.isNegative()
      ? { accountId, credit: amount.abs(), description }
      : { accountId, debit: amount, description };
  const cr = (accountId: string, amount: Decimal, description: string): PostingLine =>
    amount.isNegative()
      ? { accountId, debit: amount.abs(), description }
      : { accountId, credit: amount, description };
  const lines: PostingLine[] = [
    dr(
      await acct('salaries'),
      sum([row.gross, row.retirement_employer, row.medical_employer]),
      `${label}: salaries`,
    ),
    dr(await acct('uif_expense'), m(row.uif_employer), `${label}: UIF employer`),
    dr(await acct('sdl_expense'), m(row.sdl), `${label}: SDL`),
    cr(await acct('paye_payable'), m(row.paye).minus(row.eti), `${label}: PAYE less ETI`),
    cr(await acct('eti_income'), m(row.eti), `${label}: employment tax incentive`),
    cr(await acct('uif_payable'), sum([row.uif_employee, row.uif_employer]), `${label}: UIF`),
    cr(await acct('sdl_payable'), m(row.sdl), `${label}: SDL`),
    cr(
      await acct('retirement_payable'),
      sum([row.retirement_employee, row.retirement_employer]),
      `${label}: retirement fund`,
    ),
    cr(
      await acct('medical_aid_payable'),
      sum([row.medical_employee, row.medical_employer]),
      `${label}: medical aid`,
    ),
    cr(await acct('payroll_deductions_payable'), m(row.other_deductions), `${label}: other deductions`),
    cr(await acct('salaries_payable'), m(row.net), `${label}: net pay`),
  ].filter((l) => !money(l.debit ?? l.credit).isZero());
  const entryId =
    lines.length === 0
      ? null
      : await post(lctx, {
          companyId: row.company_id,
          date: row.period_end,
          description: label,
          source: { type: 'payroll_period', id },
          lines,
        });
  await ctx.db
    .updateTable('payroll_periods')
    .set({
      status: 'finalised',
      // A period of no pay (nobody employed) posts nothing; the lock still holds.
      entry_id: entryId,
      finalised_at: ctx.deps.now(),
      finalised_by: actorId(ctx),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return readPeriod(ctx, id);
}

export async function payPeriod(ctx: Ctx, id: string, input: { bankAccountId: string }) {
  const row = await periodRow(ctx, id, true);
  if (row.status === 'paid') throw conflict('The period is paid already', { field: 'status' });
  if (row.status !== 'finalised')
    throw conflict('The period is not finalised: finalise it first', { field: 'status' });
  const bank = await bankAccount(ctx, row.company_id, input.bankAccountId);
  const lctx = ledgerCtxOf(ctx);
  const net = money(row.net);
  const label = `Payroll ${row.frequency} ${row.period_start} to ${row.period_end}: net pay`;
  const paymentEntryId = net.isZero()
    ? null
    : await post(lctx, {
        companyId: row.company_id,
        date: row.pay_date,
        description: label,
        source: { type: 'payroll_payment', id },
        lines: [
          {
            accountId: await systemAccount(lctx, row.company_id, 'salaries_payable'),
            debit: net,
            description: label,
          },
          { accountId: bank, credit: net, description: label },
        ],
      });
  const paidAt = ctx.deps.now();
  await ctx.db
    .updateTable('payroll_periods')
    .set({
      status: 'paid',
      payment_entry_id: paymentEntryId,
      bank_account_id: bank,
      paid_at: paidAt,
      paid_by: actorId(ctx),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  // The run, never a person: dates, how many were paid, and the run's totals.
  await emit(
    ctx,
    'payroll.run.paid',
    {
      periodId: id,
      frequency: row.frequency,
      periodStart: row.period_start,
      periodEnd: row.period_end,
      payDate: row.pay_date,
      paidAt: paidAt.toISOString(),
      employeeCount: row.employee_count,
      totals: {
        gross: toNumber(row.gross),
        paye: toNumber(row.paye),
        uif: toNumber(sum([row.uif_employee, row.uif_employer])),
        sdl: toNumber(row.sdl),
        eti: toNumber(row.eti),
        net: toNumber(row.net),
      },
    },
    row.company_id,
  );
  return readPeriod(ctx, id);
}
