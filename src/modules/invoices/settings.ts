// Invoice settings: one row per company, made on its first change (until then the defaults
// apply and GET answers them). Prefixes per document type, the number of digits, the defaults a
// new document takes (payment terms, terms and notes text), the banking details printed on
// invoices, and the default template.

import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import { DOCUMENT_TYPES, type DocumentType } from './invoices.tables.ts';
import {
  assertTemplate,
  type DocumentSettings,
  findSettingsRow,
  loadSettings,
  settingsOf,
} from './settings.queries.ts';
import type { InvoiceSettings, InvoiceSettingsPatch } from './settings.schemas.ts';

/** `since`: when settings never changed were made, i.e. the company's creation. */
export function toSettingsJson(s: DocumentSettings, since: Date): Static<typeof InvoiceSettings> {
  return {
    ...s,
    createdAt: (s.createdAt ?? since).toISOString(),
    updatedAt: (s.updatedAt ?? since).toISOString(),
  };
}

export async function getSettings(ctx: TenantCtx): Promise<Static<typeof InvoiceSettings>> {
  const companyId = companyOf(ctx);
  const settings = await loadSettings(ctx.db, ctx.tenantId, companyId);
  if (settings.createdAt) return toSettingsJson(settings, settings.createdAt);
  // Never changed: the defaults have applied since the company was made.
  const company = await ctx.db
    .selectFrom('companies')
    .select('created_at')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  return toSettingsJson(settings, company.created_at);
}

const TEXT_COLUMNS = {
  defaultTerms: 'default_terms',
  defaultNotes: 'default_notes',
  bankName: 'bank_name',
  bankAccountName: 'bank_account_name',
  bankAccountNumber: 'bank_account_number',
  bankBranchCode: 'bank_branch_code',
  bankAccountType: 'bank_account_type',
} as const;

/** The prefixes after the change: only the nine types, no two alike. */
function mergedPrefixes(
  current: Record<DocumentType, string>,
  given: Record<string, string | undefined>,
): Record<DocumentType, string> {
  for (const key of Object.keys(given)) {
    if (!(DOCUMENT_TYPES as readonly string[]).includes(key))
      throw badRequest(`prefixes.${key}`, `is not a document type (${DOCUMENT_TYPES.join(', ')})`);
  }
  const merged = { ...current };
  for (const type of DOCUMENT_TYPES) {
    const value = given[type];
    if (value !== undefined) merged[type] = value;
  }
  // Two types with one prefix would print the same number on two documents.
  for (const type of DOCUMENT_TYPES) {
    if (given[type] === undefined) continue;
    const other = DOCUMENT_TYPES.find((t) => t !== type && merged[t] === merged[type]);
    if (other)
      throw badRequest(
        `prefixes.${type}`,
        `"${merged[type]}" is already the prefix of ${other}; each type needs its own`,
      );
  }
  return merged;
}

export async function updateSettings(
  ctx: TenantCtx,
  input: Static<typeof InvoiceSettingsPatch>,
): Promise<Static<typeof InvoiceSettings>> {
  const companyId = companyOf(ctx);
  // The row exists from the first change on, locked while it changes: two changes at once
  // take turns, and neither loses the other's prefixes.
  await ctx.db
    .insertInto('invoice_settings')
    .values({ tenant_id: ctx.tenantId, company_id: companyId })
    .onConflict((oc) => oc.columns(['tenant_id', 'company_id']).doNothing())
    .execute();
  const row = await findSettingsRow(ctx.db, ctx.tenantId, companyId, true);
  const current = settingsOf(companyId, row);
  // updated_at: the database moves it (touch_updated_at).
  const set: Record<string, unknown> = {};
  if (input.prefixes) {
    const merged = mergedPrefixes(current.prefixes, input.prefixes as Record<string, string | undefined>);
    set.prefixes = JSON.stringify(merged);
  }
  if (input.numberDigits !== undefined) set.number_digits = input.numberDigits;
  if (input.defaultPaymentTermsDays !== undefined)
    set.default_payment_terms_days = input.defaultPaymentTermsDays;
  for (const [field, column] of Object.entries(TEXT_COLUMNS) as Array<
    [keyof typeof TEXT_COLUMNS, (typeof TEXT_COLUMNS)[keyof typeof TEXT_COLUMNS]]
  >) {
    const value = input[field];
    if (value === undefined) continue;
    // Blank text is no text.
    set[column] = value === null || value.trim() === '' ? null : value.trim();
  }
  if (input.defaultTemplateId !== undefined) {
    await assertTemplate(ctx.db, ctx.tenantId, companyId, input.defaultTemplateId, 'defaultTemplateId');
    set.default_template_id = input.defaultTemplateId?.toLowerCase() ?? null;
  }
  if (Object.keys(set).length) {
    await ctx.db
      .updateTable('invoice_settings')
      .set(set)
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', companyId)
      .execute();
  }
  return getSettings(ctx);
}
