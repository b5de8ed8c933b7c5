// The entries a match posts itself: "create" (the bank line against an account, with VAT by its
// tax code) and "transfer" (between two of the company's bank accounts). The bank side always
// equals the bank line: money in debits the bank account, money out credits it.

import type { Decimal } from 'decimal.js';
import { badRequest } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { standardRate } from '../../platform/money/vat-rate.ts';
import type { WorkCtx } from '../../platform/work/context.ts';
import {
  assertCostCentre,
  isOutputTaxCode,
  ledgerCtxOf,
  type PostingLine,
  post,
  STANDARD_RATED_TAX_CODES,
  systemAccount,
  type TaxCode,
  vatRegisteredOn,
} from '../ledger/index.ts';
import { assertBankAccount } from './bank-accounts.service.ts';

export interface BankLine {
  id: string;
  company_id: string;
  bank_account_id: string;
  date: string;
  amount: string;
  description: string;
  reference: string | null;
}

export interface CreateInput {
  accountId: string;
  taxCode?: TaxCode | undefined;
  contactId?: string | undefined;
  description?: string | undefined;
  costCentreId?: string | undefined;
}

/** A side of the entry: a debit when the amount is positive, else a credit of its size. */
const side = (signed: Decimal) => (signed.isPositive() ? { debit: signed } : { credit: signed.abs() });

/**
 * Posts the bank line against an account. The line's amount is gross: with a standard-rated code
 * the VAT is its tax fraction, rate / (100 + rate), rounded to the cent (R115.00 at 15%: VAT
 * 15.00, net 100.00). Money in takes an output code (VAT output), money out an input code.
 */
export async function postCreate(ctx: WorkCtx, line: BankLine, c: CreateInput, matchId: string) {
  const { db, tenantId } = ctx;
  const companyId = line.company_id;
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'subtype', 'is_active', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', '=', c.accountId)
    .executeTakeFirst();
  if (!account) throw badRequest('create.accountId', 'no such account in this company');
  if (!account.is_active) throw badRequest('create.accountId', 'the account is deactivated');
  if (account.subtype === 'bank')
    throw badRequest('create.accountId', 'a bank account: match it as a transfer instead');
  const gross = money(line.amount);
  const moneyIn = gross.isPositive();
  let vat = money(0);
  let rate = money(0);
  if (c.taxCode) {
    if (isOutputTaxCode(c.taxCode) !== moneyIn)
      throw badRequest(
        'create.taxCode',
        moneyIn ? 'money in takes an output (sales) tax code' : 'money out takes an input tax code',
      );
    if (!(await vatRegisteredOn(db, tenantId, companyId, line.date)))
      throw badRequest('create.taxCode', 'the company is not VAT-registered on the bank line’s date');
    if (STANDARD_RATED_TAX_CODES.includes(c.taxCode)) {
      rate = standardRate(line.date);
      vat = gross.abs().times(rate).dividedBy(rate.plus(100)).toDecimalPlaces(2);
    }
  }
  if (c.contactId) {
    const contact = await db
      .selectFrom('contacts')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', c.contactId)
      .executeTakeFirst();
    if (!contact) throw badRequest('create.contactId', 'no such contact');
  }
  if (c.costCentreId) await assertCostCentre(db, tenantId, companyId, c.costCentreId, 'create.costCentreId');
  const lctx = ledgerCtxOf(ctx);
  const description = c.description ?? (line.description || 'Bank transaction');
  const sign = moneyIn ? -1 : 1; // the other side's sign: the opposite of the bank's
  const net = gross.abs().minus(vat);
  const tag = c.taxCode ? { taxCode: c.taxCode, taxRate: rate } : {};
  const lines: PostingLine[] = [
    { accountId: line.bank_account_id, ...side(gross), description },
    {
      accountId: c.accountId,
      ...side(net.times(sign)),
      description,
      contactId: c.contactId ?? null,
      costCentreId: c.costCentreId ?? null,
      ...tag,
    },
  ];
  if (!vat.isZero())
    lines.push({
      accountId: await systemAccount(lctx, companyId, moneyIn ? 'vat_output' : 'vat_input'),
      ...side(vat.times(sign)),
      description: `VAT: ${description}`,
      ...tag,
    });
  return post(lctx, {
    companyId,
    date: line.date,
    description,
    reference: line.reference,
    source: { type: 'bank_match', id: matchId },
    lines,
  });
}

/** Posts the bank line against another bank account of the company (money moved between them). */
export async function postTransfer(ctx: WorkCtx, line: BankLine, otherId: string, matchId: string) {
  const other = await assertBankAccount(
    ctx.db,
    ctx.tenantId,
    line.company_id,
    otherId,
    'transfer.bankAccountId',
  );
  if (other.id === line.bank_account_id)
    throw badRequest('transfer.bankAccountId', 'must be another bank account than the bank line’s');
  const amount = money(line.amount);
  const description = `Transfer ${amount.isPositive() ? 'from' : 'to'} ${other.name}`;
  return post(ledgerCtxOf(ctx), {
    companyId: line.company_id,
    date: line.date,
    description,
    reference: line.reference,
    source: { type: 'bank_transfer', id: matchId },
    lines: [
      { accountId: line.bank_account_id, ...side(amount), description },
      { accountId: other.id, ...side(amount.negated()), description },
    ],
  });
}
