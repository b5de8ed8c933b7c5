// The company's bank accounts. Each is a ledger account of subtype bank (same id) with what
// the bank knows of it beside: creating one creates its ledger account, and every bank
// account of the chart (the seeded Bank 1000 too) is one (migrations/0042_banking.sql).

import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, money, toNumber } from '../../platform/money/money.ts';
import { maskedAccountNumber } from '../../platform/secrets/masked.ts';
import { companyOf } from '../../platform/work/context.ts';
import { ledgerCtxOf, nextBankAccountCode, post, systemAccount } from '../ledger/index.ts';
import type { BankAccountCreate, BankAccountsQuery, BankAccountUpdate } from './bank-accounts.schemas.ts';

function selectBankAccounts(db: Tx, tenantId: string, companyId: string) {
  return db
    .selectFrom('bank_accounts as b')
    .innerJoin('accounts as a', (j) => j.onRef('a.tenant_id', '=', 'b.tenant_id').onRef('a.id', '=', 'b.id'))
    .selectAll('b')
    .select(['a.name', 'a.code', 'a.is_active', 'a.subtype'])
    .where('b.tenant_id', '=', tenantId)
    .where('b.company_id', '=', companyId)
    .where('a.subtype', '=', 'bank');
}

type Row = Awaited<ReturnType<ReturnType<typeof selectBankAccounts>['executeTakeFirstOrThrow']>>;

function toBankAccount(r: Row) {
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    accountCode: r.code,
    bank: r.bank,
    accountNumberMasked: r.account_number ? maskedAccountNumber(r.account_number) : null,
    branchCode: r.branch_code,
    currency: r.currency,
    openingBalance: toNumber(r.opening_balance),
    openingDate: r.opening_date,
    openingEntryId: r.opening_entry_id,
    statementBalance: r.statement_balance === null ? null : toNumber(r.statement_balance),
    statementDate: r.statement_date,
    isActive: r.is_active,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export type BankAccount = ReturnType<typeof toBankAccount>;

/** The company's bank account (another company's, tenant's or none: 404). */
export async function bankAccountOf(
  db: Tx,
  tenantId: string,
  companyId: string,
  id: string,
): Promise<BankAccount> {
  const r = await selectBankAccounts(db, tenantId, companyId).where('b.id', '=', id).executeTakeFirst();
  if (!r) throw notFound('Bank account');
  return toBankAccount(r);
}

/**
 * A bank account a body names (bankAccountId): the company's, active. Otherwise 400 naming
 * the field; the body is what is wrong, not the address.
 */
export async function assertBankAccount(
  db: Tx,
  tenantId: string,
  companyId: string,
  id: string,
  field = 'bankAccountId',
): Promise<BankAccount> {
  const r = await selectBankAccounts(db, tenantId, companyId).where('b.id', '=', id).executeTakeFirst();
  if (!r) throw badRequest(field, 'no such bank account in this company');
  if (!r.is_active) throw badRequest(field, 'the bank account is deactivated');
  return toBankAccount(r);
}

export async function listBankAccounts(ctx: TenantCtx, query: Static<typeof BankAccountsQuery>) {
  let q = selectBankAccounts(ctx.db, ctx.tenantId, companyOf(ctx));
  if (query.isActive !== undefined) q = q.where('a.is_active', '=', query.isActive);
  return (await q.orderBy('a.code').orderBy('b.id').execute()).map(toBankAccount);
}

export function getBankAccount(ctx: TenantCtx, id: string) {
  return bankAccountOf(ctx.db, ctx.tenantId, companyOf(ctx), id);
}

async function assertCodeFree(ctx: TenantCtx, code: string) {
  const taken = await ctx.db
    .selectFrom('accounts')
    .select('name')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()))
    .executeTakeFirst();
  if (taken)
    throw conflict(`accountCode: ${code} is already the code of ${taken.name}`, { field: 'accountCode' });
}

function openingOf(input: Static<typeof BankAccountCreate>) {
  const amount = money(input.openingBalance ?? 0);
  if (!hasAtMostDecimals(amount, 2)) throw badRequest('openingBalance', 'must have at most two decimals');
  if (!amount.isZero() && !input.openingDate)
    throw badRequest('openingDate', 'is required with an opening balance: the day the balance was');
  return amount;
}

export async function createBankAccount(
  ctx: TenantCtx,
  input: Static<typeof BankAccountCreate>,
): Promise<BankAccount> {
  const companyId = companyOf(ctx);
  const opening = openingOf(input);
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      const exists = await ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (exists) return false;
      const code = input.accountCode ?? (await nextBankAccountCode(ctx, companyOf(ctx)));
      if (input.accountCode) await assertCodeFree(ctx, code);
      // The trigger on accounts makes the bank_accounts row; its details follow.
      await ctx.db
        .insertInto('accounts')
        .values({
          tenant_id: ctx.tenantId,
          id,
          company_id: companyId,
          code,
          name: input.name.trim(),
          type: 'asset',
          subtype: 'bank',
        })
        .execute();
      let entryId: string | null = null;
      if (!opening.isZero()) {
        // An opening balance is equity brought in: Dr bank, Cr Opening balances (an overdraft
        // the other way round), on the day the balance was.
        const lc = ledgerCtxOf(ctx);
        const equity = await systemAccount(lc, companyId, 'opening_balances');
        const abs = opening.abs().toFixed(2);
        const inFunds = opening.greaterThan(0);
        entryId = await post(lc, {
          companyId,
          date: input.openingDate!,
          description: `Opening balance of ${input.name.trim()}`,
          source: { type: 'bank_account_opening', id },
          lines: [
            { accountId: id, debit: inFunds ? abs : null, credit: inFunds ? null : abs },
            { accountId: equity, debit: inFunds ? null : abs, credit: inFunds ? abs : null },
          ],
        });
      }
      await ctx.db
        .updateTable('bank_accounts')
        .set({
          bank: input.bank ?? 'other',
          account_number: input.accountNumber ?? null,
          branch_code: input.branchCode ?? null,
          currency: input.currency ?? 'ZAR',
          opening_balance: opening.toFixed(2),
          opening_date: input.openingDate ?? null,
          opening_entry_id: entryId,
        })
        .where('tenant_id', '=', ctx.tenantId)
        .where('id', '=', id)
        .execute();
      return true;
    },
    load: (id) => getBankAccount(ctx, id),
  });
}

export async function updateBankAccount(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof BankAccountUpdate>,
): Promise<BankAccount> {
  const companyId = companyOf(ctx);
  await bankAccountOf(ctx.db, ctx.tenantId, companyId, id);
  const account = await ctx.db
    .selectFrom('accounts')
    .select(['system_key', 'name'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (input.isActive === false && account.system_key)
    throw conflict(`isActive: ${account.name} is the chart's Bank account that documents default to`, {
      field: 'isActive',
    });
  const a: Record<string, unknown> = {};
  if (input.name !== undefined) a.name = input.name.trim();
  if (input.isActive !== undefined) a.is_active = input.isActive;
  if (Object.keys(a).length)
    await ctx.db
      .updateTable('accounts')
      .set({ ...a, updated_at: ctx.deps.now() })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  const b: Record<string, unknown> = {};
  if (input.bank !== undefined) b.bank = input.bank;
  if (input.accountNumber !== undefined) b.account_number = input.accountNumber;
  if (input.branchCode !== undefined) b.branch_code = input.branchCode;
  await ctx.db
    .updateTable('bank_accounts')
    .set({ ...b, updated_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getBankAccount(ctx, id);
}
