// Document numbers per company and type: the prefix from the invoice settings, then the next
// number of the type's counter, zero-padded. The counter row stays locked until the creating
// transaction ends, so two documents created at once take turns, and a rolled-back create
// gives its number back: gap-free. A prefix changed in the settings applies to the numbers
// taken after the change; the counter goes on (INV-0007, then TAX-0008).
//
// The number is taken inside the statement that inserts the document (a CTE, see
// createDocument): the lock is held from that statement to COMMIT, not across round trips
// the create still has to make, so creates on one company wait on each other less.
import { type QueryCreator, sql } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { DocumentCountersTable, DocumentType } from './invoices.tables.ts';

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

/** Counters of documents kept by other modules on the same table (purchase orders: PO-0001). */
export type CounterType = Exclude<DocumentCountersTable['document_type'], DocumentType>;

/**
 * The counter's next number taken, as a CTE (`taken`, one row, column `n`): the counter row is
 * created at 1 the first time (upsert), and locked until commit.
 */
export function takeNumber(
  tx: QueryCreator<DB>,
  tenantId: string,
  companyId: string,
  type: DocumentType | CounterType,
) {
  return tx
    .insertInto('document_counters')
    .values({ tenant_id: tenantId, company_id: companyId, document_type: type, next_number: '2' })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'company_id', 'document_type'])
        .doUpdateSet({ next_number: sql`document_counters.next_number + 1` }),
    )
    .returning(sql<string>`next_number - 1`.as('n'));
}

/**
 * The document number from the `taken` CTE: the type's prefix, then the number zero-padded to
 * `numberDigits` (never cut: 12345 stays 12345 with 4 digits).
 */
export function formattedNumber(
  type: DocumentType,
  settings: { prefixes: Record<DocumentType, string>; numberDigits: number },
) {
  const digits = settings.numberDigits;
  return sql<string>`(select ${settings.prefixes[type]}::text || case when length(n::text) >= ${digits}::int then n::text else lpad(n::text, ${digits}::int, '0') end from taken)`;
}
