// Balances from the running totals (account_balances), never from the lines: what every
// report stands on. Their cost follows the number of accounts and days, not of lines.

import type { Decimal } from 'decimal.js';
import type { Tx } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';
import type { AccountSubtype, AccountType } from './ledger.tables.ts';

export interface AccountTotal {
  accountId: string;
  code: string;
  name: string;
  type: AccountType;
  subtype: AccountSubtype;
  systemKey: string | null;
  isActive: boolean;
  debit: Decimal;
  credit: Decimal;
  /** debit − credit */
  net: Decimal;
}

/**
 * Debit and credit totals per account of the company over [from, to] (either end open),
 * every account of the chart included (zeros where nothing moved).
 */
export async function accountTotals(
  db: Tx,
  tenantId: string,
  companyId: string,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<AccountTotal[]> {
  const rows = await db
    .selectFrom('accounts as a')
    .leftJoin(
      (eb) => {
        let q = eb
          .selectFrom('account_balances')
          .select((b) => [
            'account_id',
            b.fn.sum<string>('debit').as('debit'),
            b.fn.sum<string>('credit').as('credit'),
          ])
          .where('tenant_id', '=', tenantId)
          .where('company_id', '=', companyId);
        if (range.from) q = q.where('date', '>=', range.from);
        if (range.to) q = q.where('date', '<=', range.to);
        return q.groupBy('account_id').as('b');
      },
      (j) => j.onRef('b.account_id', '=', 'a.id'),
    )
    .select([
      'a.id',
      'a.code',
      'a.name',
      'a.type',
      'a.subtype',
      'a.system_key',
      'a.is_active',
      'b.debit',
      'b.credit',
    ])
    .where('a.tenant_id', '=', tenantId)
    .where('a.company_id', '=', companyId)
    .orderBy('a.code')
    .execute();
  return rows.map((r) => {
    const debit = money(r.debit);
    const credit = money(r.credit);
    return {
      accountId: r.id,
      code: r.code,
      name: r.name,
      type: r.type,
      subtype: r.subtype,
      systemKey: r.system_key,
      isActive: r.is_active,
      debit,
      credit,
      net: debit.minus(credit),
    };
  });
}
