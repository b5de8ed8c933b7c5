// The VAT on an expense claim: the slip's VAT-inclusive amount, its tax fraction, and whether the
// company claims it as input tax.
//   * The VAT in a VAT-inclusive price is its tax fraction, rate/(100+rate) (VAT Act s1, "tax
//     fraction"; s7(1)(a) the rate): 15/115 of the amount at 15%, rounded half-up to the cent.
//     A slip may show less (part of it exempt or zero-rated), never more: 400 naming vatAmount.
//   * Input tax is claimed only by a company VAT-registered on the date (s16(2)) and only on a
//     tax invoice (s20): a standard-rated slip above R5,000 must name the supplier's VAT number,
//     from R50 to R5,000 one without it is kept with a warning (the bills rule, bills.vat.ts).
import type { Decimal } from 'decimal.js';
import { badRequest } from '../../platform/http/problem.ts';
import { cents, hasAtMostDecimals, Money, ZERO } from '../../platform/money/money.ts';
import { standardRate } from '../../platform/money/vat-rate.ts';
import { type BillTaxCode, taxInvoiceCheck } from '../bills/index.ts';

export interface ClaimVat {
  rate: Decimal;
  vat: Decimal;
  claimable: boolean;
  vatNumber: string | null;
  warning: string | null;
}

/** The tax fraction of a VAT-inclusive amount at `rate` percent, half-up to the cent. */
export function taxFraction(amount: Decimal, rate: Decimal): Decimal {
  return cents(amount.times(rate).dividedBy(rate.plus(100)));
}

export function claimVat(input: {
  amount: number;
  vatAmount: number | undefined;
  taxCode: BillTaxCode;
  date: string;
  vatRegistered: boolean;
  supplierVatNumber: string | undefined;
}): ClaimVat {
  if (!hasAtMostDecimals(input.amount, 2)) throw badRequest('amount', 'at most two decimals (cents)');
  if (input.amount >= 1e12) throw badRequest('amount', 'too large');
  const amount = new Money(input.amount);
  const taxed = input.taxCode === 'standard' || input.taxCode === 'standard_capital';
  const rate = taxed ? standardRate(input.date) : ZERO;
  const most = taxFraction(amount, rate);
  let vat = most;
  if (input.vatAmount !== undefined) {
    if (!hasAtMostDecimals(input.vatAmount, 2)) throw badRequest('vatAmount', 'at most two decimals (cents)');
    vat = new Money(input.vatAmount);
    if (vat.greaterThan(most))
      throw badRequest(
        'vatAmount',
        taxed
          ? `at most the tax fraction of the amount, ${rate.toNumber()}/${rate.plus(100).toNumber()} of ` +
              `${amount.toFixed(2)} = ${most.toFixed(2)} (VAT Act s1, s7)`
          : `a ${input.taxCode} supply carries no VAT: 0`,
      );
  }
  const vatNumber = input.supplierVatNumber?.trim() || null;
  if (!input.vatRegistered || vat.isZero()) return { rate, vat, claimable: false, vatNumber, warning: null };
  const check = taxInvoiceCheck({ total: amount, vatTotal: vat, vatNumber });
  return { rate, vat, claimable: true, vatNumber: check.vatNumber, warning: check.warning };
}
