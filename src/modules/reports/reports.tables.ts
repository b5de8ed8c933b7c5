// Kysely types of the reports module's tables (migrations/0030_vat201.sql): submitted VAT periods
// and the totals each submission reported.
import type { DateString, DefaultTimestamp, Numeric } from '../../platform/db/schema.ts';
import type { TaxCode } from '../ledger/index.ts';

export interface VatPeriodSubmissionsTable {
  tenant_id: string;
  company_id: string;
  /** The end month, YYYY-MM. */
  period_id: string;
  date_from: DateString;
  date_to: DateString;
  submitted_at: DefaultTimestamp;
  submitted_by_type: string | null;
  submitted_by: string | null;
}

export interface VatPeriodTotalsTable {
  tenant_id: string;
  company_id: string;
  /** The submission that reported these totals. */
  period_id: string;
  /** The period whose dates they cover: the submission's own, or an earlier one adjusted. */
  source_period_id: string;
  tax_code: TaxCode;
  tax_rate: Numeric;
  transition: boolean;
  base_debit: Numeric;
  base_credit: Numeric;
  tax_debit: Numeric;
  tax_credit: Numeric;
}

declare module '../../platform/db/schema.ts' {
  interface DB {
    vat_period_submissions: VatPeriodSubmissionsTable;
    vat_period_totals: VatPeriodTotalsTable;
  }
}
