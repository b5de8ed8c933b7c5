// A supplier's bank details (on the contact) and the fraud control around them. Changing a
// supplier's account number is the commonest payment fraud in South Africa (a forged letter
// or e-mail "from the supplier"): so every change is kept in a history, and a change (or a
// first capture) made in the last 14 days blocks the payment run until a DIFFERENT person
// with approve rights confirms it, having phoned the supplier on a number already known.
// The account number is sealed at rest (src/platform/secrets) and answered masked.
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { addDays, dayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { conflict, notFound } from '../../platform/http/problem.ts';
import { openSecret, sealSecret, secretKeysOf } from '../../platform/secrets/index.ts';
import { maskedAccountNumber } from '../../platform/secrets/masked.ts';
import { contactName } from '../contacts/index.ts';
import type { BankDetails, BankDetailsInput } from './bills.bank-details.schemas.ts';
import type { ContactBankDetailsTable } from './bills.payment-run.tables.ts';

export type BankDetailsRow = Selectable<ContactBankDetailsTable>;
type BankDetailsRecord = Static<typeof BankDetails>;

/** How long a change blocks payment unless confirmed (the issue: "changed in the last 14 days"). */
export const CONFIRMATION_DAYS = 14;

/** Who acts: a person, or an API key (its owner when it has one, else the key itself). */
export function actorOf(ctx: TenantCtx): { id: string; name: string } {
  const p = ctx.principal;
  return p.type === 'user' ? { id: p.userId, name: p.name } : { id: p.userId ?? p.keyId, name: p.name };
}

/** Changed or first captured within the last 14 days, and nobody has confirmed it since. */
export function pendingConfirmation(row: BankDetailsRow, now: Date): boolean {
  if (row.confirmed_at && row.confirmed_at >= row.changed_at) return false;
  return dayOf(row.changed_at) > addDays(dayOf(now), -CONFIRMATION_DAYS);
}

/** The words a payment run shows beside a supplier whose details changed. */
export function changedWarning(row: BankDetailsRow): string {
  return (
    `Bank details changed on ${dayOf(row.changed_at)} by ${row.changed_by_name}: confirm with the supplier by ` +
    'phone on a known number before paying'
  );
}

/** The current details of these contacts, by contact id (one statement). */
export async function bankDetailsOf(
  ctx: TenantCtx,
  contactIds: string[],
  opts: { lock?: boolean } = {},
): Promise<Map<string, BankDetailsRow>> {
  if (!contactIds.length) return new Map();
  const q = ctx.db
    .selectFrom('contact_bank_details')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('contact_id', 'in', contactIds)
    .orderBy('contact_id');
  const rows = await (opts.lock ? q.forUpdate() : q).execute();
  return new Map(rows.map((r) => [r.contact_id, r]));
}

async function assertContact(ctx: TenantCtx, contactId: string): Promise<void> {
  if ((await contactName(ctx, contactId)) === undefined) throw notFound('Contact');
}

function findRow(ctx: TenantCtx, contactId: string, lock = false) {
  const q = ctx.db
    .selectFrom('contact_bank_details')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('contact_id', '=', contactId);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

async function record(ctx: TenantCtx, row: BankDetailsRow): Promise<BankDetailsRecord> {
  const history = await ctx.db
    .selectFrom('contact_bank_detail_changes')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('contact_id', '=', row.contact_id)
    .orderBy('changed_at', 'desc')
    .orderBy('id')
    .execute();
  return {
    contactId: row.contact_id,
    bankName: row.bank_name,
    accountHolder: row.account_holder,
    accountMasked: maskedAccountNumber(row.account_last4),
    branchCode: row.branch_code,
    accountType: row.account_type,
    changedAt: row.changed_at.toISOString(),
    changedBy: row.changed_by_name,
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
    confirmedBy: row.confirmed_by_name,
    pendingConfirmation: pendingConfirmation(row, ctx.deps.now()),
    history: history.map((h) => ({
      changedAt: h.changed_at.toISOString(),
      changedBy: h.changed_by_name,
      oldAccountMasked: h.old_account_masked,
      newAccountMasked: h.new_account_masked,
      bankName: h.bank_name,
      branchCode: h.branch_code,
    })),
  };
}

/** GET /api/contacts/{id}/bank-details: 404 when the contact has none yet. */
export async function getBankDetails(ctx: TenantCtx, contactId: string): Promise<BankDetailsRecord> {
  await assertContact(ctx, contactId);
  const row = await findRow(ctx, contactId);
  if (!row) throw notFound('Bank details');
  return record(ctx, row);
}

/**
 * PUT /api/contacts/{id}/bank-details. A change of anything a payment goes by (bank, holder,
 * number, branch, type) is recorded in the history and needs confirming again; the same
 * details sent again change nothing (and keep a confirmation).
 */
export async function putBankDetails(
  ctx: TenantCtx,
  contactId: string,
  input: Static<typeof BankDetailsInput>,
): Promise<BankDetailsRecord> {
  await assertContact(ctx, contactId);
  const keys = secretKeysOf(ctx.deps);
  const old = await findRow(ctx, contactId, true);
  const accountType = input.accountType ?? 'cheque';
  const last4 = input.accountNumber.slice(-4);
  if (old) {
    const same =
      old.bank_name === input.bankName.trim() &&
      old.account_holder === input.accountHolder.trim() &&
      old.branch_code === input.branchCode &&
      old.account_type === accountType &&
      openSecret(keys, old.account_number_sealed) === input.accountNumber;
    if (same) return record(ctx, old);
  }
  const actor = actorOf(ctx);
  const now = ctx.deps.now();
  const values = {
    bank_name: input.bankName.trim(),
    account_holder: input.accountHolder.trim(),
    account_number_sealed: sealSecret(keys, input.accountNumber),
    account_last4: last4,
    branch_code: input.branchCode,
    account_type: accountType,
    changed_at: now,
    changed_by: actor.id,
    changed_by_name: actor.name,
    confirmed_at: null,
    confirmed_by: null,
    confirmed_by_name: null,
  };
  const row = old
    ? await ctx.db
        .updateTable('contact_bank_details')
        .set(values)
        .where('tenant_id', '=', ctx.tenantId)
        .where('contact_id', '=', contactId)
        .returningAll()
        .executeTakeFirstOrThrow()
    : await ctx.db
        .insertInto('contact_bank_details')
        .values({ tenant_id: ctx.tenantId, contact_id: contactId, ...values })
        .returningAll()
        .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('contact_bank_detail_changes')
    .values({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      contact_id: contactId,
      changed_at: now,
      changed_by: actor.id,
      changed_by_name: actor.name,
      old_account_masked: old ? maskedAccountNumber(old.account_last4) : null,
      new_account_masked: maskedAccountNumber(last4),
      bank_name: values.bank_name,
      branch_code: values.branch_code,
    })
    .execute();
  return record(ctx, row);
}

/**
 * POST /api/contacts/{id}/bank-details/confirm: someone with approve rights says the change was
 * checked with the supplier. Not the person who made it (409 SAME_USER): one person alone must
 * not be able to redirect a supplier's money. Confirming confirmed details changes nothing.
 */
export async function confirmBankDetails(ctx: TenantCtx, contactId: string): Promise<BankDetailsRecord> {
  await assertContact(ctx, contactId);
  const row = await findRow(ctx, contactId, true);
  if (!row) throw notFound('Bank details');
  if (row.confirmed_at && row.confirmed_at >= row.changed_at) return record(ctx, row);
  const actor = actorOf(ctx);
  if (row.changed_by === actor.id) {
    throw conflict(
      `These bank details were changed by ${row.changed_by_name}: another person must confirm them with the supplier`,
      { code: 'SAME_USER' },
    );
  }
  const updated = await ctx.db
    .updateTable('contact_bank_details')
    .set({ confirmed_at: ctx.deps.now(), confirmed_by: actor.id, confirmed_by_name: actor.name })
    .where('tenant_id', '=', ctx.tenantId)
    .where('contact_id', '=', contactId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return record(ctx, updated);
}
