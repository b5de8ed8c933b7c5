// SDL (Skills Development Levies Act s3): the employer pays a rate (1%) of leviable remuneration,
// no ceiling, nothing from the employee. An employer whose remuneration over the next twelve
// months is not expected to exceed the threshold (R500 000) is exempt (s4(b)): the caller says
// so (`exempt`, e.g. from sdlExempt below on the company's expected payroll). Rounded half-up
// to the cent.
import type { Decimal } from 'decimal.js';
import { cents, type MoneyInput, money, ZERO } from '../../../platform/money/money.ts';

export interface SdlRates {
  effectiveFrom: string;
  rate: Decimal;
  exemptionThreshold: Decimal;
}

/** Exempt when the expected remuneration for the next twelve months is at or below the threshold. */
export function sdlExempt(
  rates: Pick<SdlRates, 'exemptionThreshold'>,
  expectedAnnualPayroll: MoneyInput,
): boolean {
  return money(expectedAnnualPayroll).lte(rates.exemptionThreshold);
}

/** The employer's levy on one employee's leviable remuneration for a period (IRP5 4142). */
export function sdl(
  rates: SdlRates,
  input: { remuneration: MoneyInput; exempt: boolean; applies?: boolean },
): Decimal {
  const remuneration = money(input.remuneration);
  if (input.exempt || input.applies === false || remuneration.lte(0)) return ZERO;
  return cents(remuneration.times(rates.rate));
}
