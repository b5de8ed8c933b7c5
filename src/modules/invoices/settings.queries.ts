// SQL of the invoice settings and templates: a company's settings row (absent until first
// changed: the defaults apply) and its templates (a deleted one is kept, marked deleted).
import type { Selectable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';
import type { DocumentType, InvoiceSettingsTable, InvoiceTemplatesTable } from './invoices.tables.ts';

/** Each sales document type's number prefix until the settings name another. */
export const DEFAULT_PREFIXES: Record<DocumentType, string> = {
  invoice: 'INV-',
  quote: 'QUO-',
  pro_forma: 'PRO-',
  sales_order: 'SO-',
  delivery_note: 'DN-',
  credit_note: 'CN-',
  debit_note: 'DBN-',
  cash_sale: 'CS-',
  deposit: 'DEP-',
};

export type SettingsRow = Selectable<InvoiceSettingsTable>;
export type TemplateRow = Selectable<InvoiceTemplatesTable>;

/** A company's settings with the defaults filled in. */
export interface DocumentSettings {
  companyId: string;
  prefixes: Record<DocumentType, string>;
  numberDigits: number;
  defaultPaymentTermsDays: number;
  defaultTerms: string | null;
  defaultNotes: string | null;
  bankName: string | null;
  bankAccountName: string | null;
  bankAccountNumber: string | null;
  bankBranchCode: string | null;
  bankAccountType: string | null;
  defaultTemplateId: string | null;
  /** null while never changed (no row: the defaults apply) */
  createdAt: Date | null;
  updatedAt: Date | null;
}

export function findSettingsRow(tx: Tx, tenantId: string, companyId: string, lock = false) {
  let q = tx
    .selectFrom('invoice_settings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function settingsOf(companyId: string, row: SettingsRow | undefined): DocumentSettings {
  const stored = (row?.prefixes ?? {}) as Partial<Record<DocumentType, string>>;
  return {
    companyId,
    prefixes: { ...DEFAULT_PREFIXES, ...stored },
    numberDigits: row?.number_digits ?? 4,
    defaultPaymentTermsDays: row?.default_payment_terms_days ?? 30,
    defaultTerms: row?.default_terms ?? null,
    defaultNotes: row?.default_notes ?? null,
    bankName: row?.bank_name ?? null,
    bankAccountName: row?.bank_account_name ?? null,
    bankAccountNumber: row?.bank_account_number ?? null,
    bankBranchCode: row?.bank_branch_code ?? null,
    bankAccountType: row?.bank_account_type ?? null,
    defaultTemplateId: row?.default_template_id ?? null,
    createdAt: row?.created_at ?? null,
    updatedAt: row?.updated_at ?? null,
  };
}

export async function loadSettings(tx: Tx, tenantId: string, companyId: string): Promise<DocumentSettings> {
  return settingsOf(companyId, await findSettingsRow(tx, tenantId, companyId));
}

/** The live templates of a company, without their logos' bytes (the size instead). */
export function templatesOf(tx: Tx, tenantId: string, companyId: string) {
  return tx
    .selectFrom('invoice_templates')
    .select([
      'tenant_id',
      'id',
      'company_id',
      'name',
      'primary_colour',
      'accent_colour',
      'logo_content_type',
      'footer',
      'created_at',
      'updated_at',
      'deleted_at',
      (eb) => eb.fn<number | null>('octet_length', ['logo']).as('logo_size'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null);
}

/** A live template of the company, without its logo's bytes. */
export function findTemplate(tx: Tx, tenantId: string, companyId: string, id: string) {
  return templatesOf(tx, tenantId, companyId).where('id', '=', id).executeTakeFirst();
}

/** A template a document or the settings may name: a live one of the company, or a 400 naming the field. */
export async function assertTemplate(
  tx: Tx,
  tenantId: string,
  companyId: string,
  id: string | null | undefined,
  field: string,
): Promise<void> {
  if (!id) return;
  if (!(await findTemplate(tx, tenantId, companyId, id)))
    throw badRequest(field, 'no such invoice template in this company');
}
