// Document numbers per company and type: the prefix from the invoice settings, then the next
// number of the type's counter, zero-padded. The counter row stays locked until the creating
// transaction ends, so two documents created at once take turns, and a rolled-back create
// gives its number back: gap-free. A prefix changed in the settings applies to the numbers
// taken after the change; the counter goes on (INV-0007, then TAX-0008).
import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import type { DocumentType } from './invoices.tables.ts';

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

export async function nextNumber(
  tx: Tx,
  tenantId: string,
  companyId: string,
  type: DocumentType,
  settings: { prefixes: Record<DocumentType, string>; numberDigits: number },
): Promise<string> {
  await tx
    .insertInto('document_counters')
    .values({ tenant_id: tenantId, company_id: companyId, document_type: type })
    .onConflict((oc) => oc.columns(['tenant_id', 'company_id', 'document_type']).doNothing())
    .execute();
  const taken = await tx
    .updateTable('document_counters')
    .set({ next_number: sql`next_number + 1` })
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('document_type', '=', type)
    .returning('next_number')
    .executeTakeFirstOrThrow();
  const n = Number(taken.next_number) - 1;
  return `${settings.prefixes[type]}${String(n).padStart(settings.numberDigits, '0')}`;
}
