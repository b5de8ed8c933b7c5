// Test helpers: contacts made through the API, and ledger postings written straight to the
// ledger tables (no posting service exists on this branch yet), as the invoices and bills
// modules will write them.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { as, TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';

/** POST /api/contacts, asserting 201; the created contact. */
export async function createContact(
  api: ReturnType<typeof as>,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const res = await api({ method: 'POST', url: '/api/contacts', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** A 400 problem whose detail names the field. */
export function assertBadRequest(res: LightMyRequestResponse, field: string) {
  const body = assertProblem(res, 400, field);
  assert.match(String(body.detail), new RegExp(`\\b${field}\\b`), `detail names ${field}: ${body.detail}`);
}

/** The company's chart (idempotent: a company that has it keeps it). */
export async function seedChart(t: TestApp, tenantId: string, companyId: string): Promise<void> {
  await withTenant(t.database.db, tenantId, async (tx) => {
    await sql`select bp_seed_default_chart(${tenantId}::uuid, ${companyId}::uuid)`.execute(tx);
  });
}

export interface PostingLine {
  /** the account's system key, e.g. debtors_control, sales, bank */
  account: string;
  debit?: string;
  credit?: string;
  contactId?: string;
  openItemId?: string;
  dueDate?: string;
}

/** One balanced journal entry: the entry, then all its lines in one INSERT. */
export async function post(
  t: TestApp,
  tenantId: string,
  companyId: string,
  date: string,
  lines: PostingLine[],
): Promise<string> {
  const entryId = crypto.randomUUID();
  await withTenant(t.database.db, tenantId, async (tx) => {
    const accounts = await tx
      .selectFrom('accounts')
      .select(['id', 'system_key'])
      .where('tenant_id', '=', tenantId)
      .where('company_id', '=', companyId)
      .where('system_key', 'is not', null)
      .execute();
    const idOf = new Map(accounts.map((a) => [a.system_key!, a.id]));
    await tx
      .insertInto('journal_entries')
      .values({
        tenant_id: tenantId,
        id: entryId,
        company_id: companyId,
        date,
        description: 'test posting',
        source_type: 'test',
      })
      .execute();
    await tx
      .insertInto('journal_lines')
      .values(
        lines.map((l, i) => {
          const accountId = idOf.get(l.account);
          if (!accountId) throw new Error(`no account ${l.account} in company ${companyId}`);
          return {
            tenant_id: tenantId,
            id: crypto.randomUUID(),
            entry_id: entryId,
            line_no: i + 1,
            company_id: companyId,
            date,
            account_id: accountId,
            debit: l.debit ?? '0',
            credit: l.credit ?? '0',
            contact_id: l.contactId ?? null,
            open_item_id: l.openItemId ?? null,
            due_date: l.dueDate ?? null,
          };
        }),
      )
      .execute();
  });
  return entryId;
}

/** A sales invoice to the contact: debtors control against sales. Returns the item id. */
export async function invoice(
  t: TestApp,
  tenantId: string,
  companyId: string,
  contactId: string | undefined,
  o: { date: string; due?: string; amount: string; item?: string },
): Promise<string> {
  const item = o.item ?? crypto.randomUUID();
  await post(t, tenantId, companyId, o.date, [
    {
      account: 'debtors_control',
      debit: o.amount,
      ...(contactId ? { contactId } : {}),
      openItemId: item,
      ...(o.due ? { dueDate: o.due } : {}),
    },
    { account: 'sales', credit: o.amount },
  ]);
  return item;
}

/** A customer's payment against an invoice: bank against debtors control. */
export async function receipt(
  t: TestApp,
  tenantId: string,
  companyId: string,
  contactId: string,
  o: { date: string; amount: string; item: string },
): Promise<void> {
  await post(t, tenantId, companyId, o.date, [
    { account: 'bank', debit: o.amount },
    { account: 'debtors_control', credit: o.amount, contactId, openItemId: o.item },
  ]);
}

/** A supplier's bill: purchases and VAT against creditors control. Returns the item id. */
export async function bill(
  t: TestApp,
  tenantId: string,
  companyId: string,
  contactId: string,
  o: { date: string; due?: string; net: string; vat: string; total: string },
): Promise<string> {
  const item = crypto.randomUUID();
  await post(t, tenantId, companyId, o.date, [
    { account: 'purchases', debit: o.net },
    { account: 'vat_input', debit: o.vat },
    {
      account: 'creditors_control',
      credit: o.total,
      contactId,
      openItemId: item,
      ...(o.due ? { dueDate: o.due } : {}),
    },
  ]);
  return item;
}

/** A payment to a supplier against a bill: creditors control against bank. */
export async function payment(
  t: TestApp,
  tenantId: string,
  companyId: string,
  contactId: string,
  o: { date: string; amount: string; item: string },
): Promise<void> {
  await post(t, tenantId, companyId, o.date, [
    { account: 'creditors_control', debit: o.amount, contactId, openItemId: o.item },
    { account: 'bank', credit: o.amount },
  ]);
}
