// The VAT of a supplier's bill: the sales rules (invoices/vat.ts: the rate by code and date, a
// vatRate accepted instead of a code, half-up per line) applied to what the supplier charged, and
// the input tax the bill claims (VAT201 fields 14 and 15, VAT Act s16(3)(a)):
//   standard          the standard rate of the date; input tax on other goods and services (15)
//   standard_capital  the standard rate; input tax on capital goods and services (14)
//   zero, exempt      no VAT (input_zero, input_exempt: in no field, kept for the record)
//   out_of_scope      not a supply (wages, fines, bank interest): untagged
// The supplier charges VAT whatever the buyer's registration; a buyer not VAT-registered on the
// issue date claims none (s16(2)): the VAT is then part of the cost (bills.posting.ts).
// A tax invoice (s20): above R5,000 a full one, which names the supplier's VAT number: a
// standard-rated bill above it without the number is refused; from R50 to R5,000 an abridged one
// still names it, so such a bill is kept with a warning (DECISIONS.md, "Money and VAT"). The number
// must be a South African VAT number (ten digits starting with 4): anything else counts as none.

import type { Decimal } from 'decimal.js';
import { badRequest } from '../../platform/http/problem.ts';
import { Money } from '../../platform/money/money.ts';
import { PURCHASE_TAX_CODES } from '../../platform/money/vat-rate.ts';
import type { TaxCode } from '../ledger/index.ts';
import {
  type LineAmounts,
  lineAmounts,
  lineTaxCode,
  type SalesTaxCode,
  type VatLineInput,
} from '../ledger/index.ts';

/** A bill line's tax codes (their one list: platform/money/vat-rate.ts). */
export const BILL_TAX_CODES = PURCHASE_TAX_CODES;
export type BillTaxCode = (typeof BILL_TAX_CODES)[number];

/** The ledger's input tax code a bill line's code is tagged with (none: out of scope). */
export const INPUT_TAX_CODE: Record<BillTaxCode, TaxCode | null> = {
  standard: 'input_standard',
  standard_capital: 'input_capital',
  zero: 'input_zero',
  exempt: 'input_exempt',
  out_of_scope: null,
};

/** A full tax invoice above this (incl. VAT) must name the supplier's VAT number (s20(4)). */
export const FULL_TAX_INVOICE_FROM = new Money(5000);
/** From this (incl. VAT) an abridged tax invoice, which also names it (s20(5)). */
export const ABRIDGED_TAX_INVOICE_FROM = new Money(50);

export interface BillLineInput extends Omit<VatLineInput, 'taxCode' | 'discountRate'> {
  taxCode?: BillTaxCode | null | undefined;
}

/**
 * The line's amounts at the supplier's rate on the issue date. A capital line is charged as a
 * standard one (the difference is only which field claims it); the code is kept as given.
 */
export function billLineAmounts(
  line: BillLineInput,
  issueDate: string,
  field: string,
): LineAmounts & { billTaxCode: BillTaxCode } {
  const code = line.taxCode ?? undefined;
  const capital = code === 'standard_capital';
  const asked: SalesTaxCode | undefined = code === 'standard_capital' ? 'standard' : code;
  // The code first, so that a refused rate is named as the line sent it.
  const taxCode = lineTaxCode({ taxCode: asked, vatRate: line.vatRate }, issueDate, `${field}.vatRate`);
  const amounts = lineAmounts(
    { quantity: line.quantity, unitPrice: line.unitPrice, taxCode },
    { vatRegistered: true, issueDate },
  );
  return { ...amounts, billTaxCode: capital ? 'standard_capital' : (taxCode as BillTaxCode) };
}

/**
 * A South African VAT registration number as SARS issues them: ten digits, the first a 4 (spaces
 * between the groups, as on "4123 456 789", are ignored); null for anything else. "N/A", "1" or
 * a foreign number on a standard-rated South African tax invoice is not a VAT number: the claim
 * treats it as none (issue 34).
 */
export function saVatNumber(value: string | null | undefined): string | null {
  const v = value?.replace(/\s+/g, '') ?? '';
  return /^4\d{9}$/.test(v) ? v : null;
}

/**
 * The VAT number the claim rests on (a South African one, else null), and any warning; 400
 * naming supplierVatNumber when a standard-rated bill above R5,000 names none.
 */
export function taxInvoiceCheck(input: { total: Decimal; vatTotal: Decimal; vatNumber: string | null }): {
  vatNumber: string | null;
  warning: string | null;
} {
  const given = input.vatNumber?.trim() || null;
  const vatNumber = saVatNumber(given);
  if (vatNumber || input.vatTotal.isZero()) return { vatNumber, warning: null };
  // What was given, when it was something, and why it does not count.
  const not = given
    ? `"${given}" is not a South African VAT number (ten digits starting with 4), so it counts as none: `
    : '';
  if (input.total.greaterThan(FULL_TAX_INVOICE_FROM))
    throw badRequest(
      'supplierVatNumber',
      `${not}a standard-rated bill above R5,000 (this one is R${input.total.toFixed(2)}) claims input tax only on a ` +
        "full tax invoice, which names the supplier's VAT number (VAT Act s16(2), s20(4)): give " +
        "supplierVatNumber or set the supplier contact's vatNumber",
    );
  if (input.total.greaterThanOrEqualTo(ABRIDGED_TAX_INVOICE_FROM))
    return {
      vatNumber,
      warning:
        (given
          ? `The supplier's VAT number "${given}" is not a South African VAT number (ten digits starting with 4): `
          : "The supplier's VAT number is missing: ") +
        'an abridged tax invoice (R50 to R5,000) names it (s20(5)), so the input tax claimed on this bill may be ' +
        'disallowed',
    };
  return { vatNumber, warning: null };
}
