// The South African standard VAT rate on a date: 15%, 14% before 2018-04-01 (VAT Act s7(1)(a), as
// amended by the Rates and Monetary Amounts Act 2018). The one home of the rule: sales lines
// (invoices/vat.ts), manual journal tags (ledger/journals.vat.ts) and the VAT report's
// transition rule (reports) all read it from here.
import type { Decimal } from 'decimal.js';
import { Money } from './money.ts';

/** The day the standard rate went from 14% to 15%. */
export const RATE_CHANGE_DATE = '2018-04-01';

/** The standard rate (percent) on `date` (YYYY-MM-DD). */
export function standardRate(date: string): Decimal {
  return new Money(date < RATE_CHANGE_DATE ? 14 : 15);
}

/**
 * The share of the value of commercial accommodation supplied for more than 28 days that is
 * taxed (VAT Act s10(10)): 60%, so its VAT is the standard rate of 60% of the value.
 */
export const LONG_STAY_SHARE = new Money('0.6');

/**
 * The tax codes of a sales line and of a purchase line: one list each, for the documents that
 * carry them (invoices, bills) and for the products that give them to their lines.
 */
export const SALES_TAX_CODES = [
  'standard',
  'zero',
  'zero_export',
  'exempt',
  'out_of_scope',
  'accommodation_short',
  'accommodation_long',
] as const;
export const PURCHASE_TAX_CODES = ['standard', 'standard_capital', 'zero', 'exempt', 'out_of_scope'] as const;
