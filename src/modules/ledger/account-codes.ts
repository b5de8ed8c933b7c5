// Account codes and the accounts the system makes for itself. The chart is the ledger's, so the
// rule for the next free bank code and the insert of a system account live here: banking (a new
// bank account) and online payments (a gateway's clearing account) both take codes from it.
import type { Tx } from '../../platform/db/tenant.ts';
import { conflict } from '../../platform/http/problem.ts';

type Ctx = { db: Tx; tenantId: string };

/** The next free code from 1010 in steps of 10 (1000 is the chart's Bank). */
export async function nextBankAccountCode(ctx: Ctx, companyId: string): Promise<string> {
  const codes = new Set(
    (
      await ctx.db
        .selectFrom('accounts')
        .select('code')
        .where('tenant_id', '=', ctx.tenantId)
        .where('company_id', '=', companyId)
        .execute()
    ).map((r) => r.code.toLowerCase()),
  );
  for (let c = 1010; c < 1100; c += 10) if (!codes.has(String(c))) return String(c);
  for (let c = 1001; c < 10000; c++) if (!codes.has(String(c))) return String(c);
  throw conflict('accountCode: no free code from 1001 to 9999; name one', { field: 'accountCode' });
}

/** A bank account the system keeps for itself (a gateway's clearing account), by its system key. */
export interface SystemBankAccount {
  key: string;
  name: string;
  description: string;
}

/**
 * The company's system bank account of that key, made when absent (an asset of subtype bank
 * with the next free bank code, so it is a bank account like any other).
 */
export async function systemBankAccount(
  ctx: Ctx,
  companyId: string,
  account: SystemBankAccount,
): Promise<string> {
  const existing = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('system_key', '=', account.key)
    .executeTakeFirst();
  if (existing) return existing.id;
  const code = await nextBankAccountCode(ctx, companyId);
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('accounts')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      code,
      name: account.name,
      type: 'asset',
      subtype: 'bank',
      system_key: account.key,
      description: account.description,
    })
    .execute();
  return id;
}
