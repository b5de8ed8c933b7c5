// Document numbers per company and counter (a sales document's type, purchase orders, and the
// next module's documents): a prefix, then the counter's next number, zero-padded. The
// platform's, so that every module numbers its documents one way without importing another. The counter row stays locked until the creating
// transaction ends, so two documents created at once take turns, and a rolled-back create
// gives its number back: gap-free. A prefix changed in the settings applies to the numbers
// taken after the change; the counter goes on (INV-0007, then TAX-0008).
//
// The number is taken inside the statement that inserts the document (a CTE, see
// createDocument): the lock is held from that statement to COMMIT, not across round trips
// the create still has to make, so creates on one company wait on each other less.

import type { ColumnType } from 'kysely';
import { type QueryCreator, sql } from 'kysely';
import type { DB } from '../db/schema.ts';

/** One counter per company and document type (migrations: document_counters). */
export interface DocumentCountersTable {
  tenant_id: string;
  company_id: string;
  /** A sales document's type, or another module's counter (purchase_order). */
  document_type: string;
  next_number: ColumnType<string, string | number | undefined, string | number>;
}

declare module '../db/schema.ts' {
  interface DB {
    document_counters: DocumentCountersTable;
  }
}

/**
 * The counter's next number taken, as a CTE (`taken`, one row, column `n`): the counter row is
 * created at 1 the first time (upsert), and locked until commit.
 */
export function takeNumber(tx: QueryCreator<DB>, tenantId: string, companyId: string, counter: string) {
  return tx
    .insertInto('document_counters')
    .values({ tenant_id: tenantId, company_id: companyId, document_type: counter, next_number: '2' })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'company_id', 'document_type'])
        .doUpdateSet({ next_number: sql`document_counters.next_number + 1` }),
    )
    .returning(sql<string>`next_number - 1`.as('n'));
}

/**
 * The document number from the `taken` CTE: the prefix, then the number zero-padded to `digits`
 * (never cut: 12345 stays 12345 with 4 digits).
 */
export function formattedNumber(prefix: string, digits: number) {
  return sql<string>`(select ${prefix}::text || case when length(n::text) >= ${digits}::int then n::text else lpad(n::text, ${digits}::int, '0') end from taken)`;
}
