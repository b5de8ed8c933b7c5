// Whether a company was VAT-registered on a date: what every posting with VAT asks (a journal
// line's tax code, an invoice's, a bill's). The registrations are written by the companies
// module (PATCH /api/companies/{id}); the question is the ledger's, so that the ledger and every
// module above it ask it here, and the ledger never imports companies (companies seeds the chart
// through the ledger: the ledger is the lower module).
import type { Tx } from '../../platform/db/tenant.ts';

/** Registered on a date when the latest registration change on or before it says so. */
export async function vatRegisteredOn(
  tx: Tx,
  tenantId: string,
  companyId: string,
  date: string,
): Promise<boolean> {
  const r = await tx
    .selectFrom('company_vat_registrations')
    .select('registered')
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('effective_from', '<=', date)
    .orderBy('effective_from', 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.registered ?? false;
}
