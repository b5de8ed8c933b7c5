// What a payslip warns the payroll officer of before the period is finalised (issue 34): kept on
// the payslip (payslips.warnings) and, with the employee, on its period (payroll_periods.warnings)
// and in the EMP201's issues. A closed list of codes, so a client can act on them:
//   * NO_TAX_NUMBER: the employee has no income tax number. PAYE is still deducted, but the
//     tax certificate (IRP5/IT3(a)) and the employer's reconciliation (EMP501) carry it: a
//     certificate without one is what SARS queries. Add it before the reconciliation.
//   * ETI_BELOW_MINIMUM_WAGE: the wage for the ordinary hours is below the least the ETI Act s4(1)
//     allows (the higher of the National Minimum Wage and a wage-regulating measure, or for a
//     wage not bound by the NMW the fixed R2 500 for 160 hours), so no ETI is claimed: claiming it
//     would be penalised at 100% (s4(2)). The detail gives the figures.
import type { Decimal } from 'decimal.js';
import { cents } from '../../platform/money/money.ts';
import type { MinimumWage } from './statutory.ts';

export const PAYSLIP_WARNING_CODES = ['NO_TAX_NUMBER', 'ETI_BELOW_MINIMUM_WAGE'] as const;
export type PayslipWarningCode = (typeof PAYSLIP_WARNING_CODES)[number];

export interface PayslipWarning {
  code: PayslipWarningCode;
  detail: string;
}

/** A payslip's warning on its period: with the employee it is about. */
export interface PeriodWarning extends PayslipWarning {
  employeeId: string;
  employeeNumber: string;
}

/** Warnings as a jsonb column reads (parsed by the driver, or its text). */
export function warningsOf<T extends PayslipWarning>(column: unknown): T[] {
  return (typeof column === 'string' ? JSON.parse(column) : (column ?? [])) as T[];
}

/** R1 234.56: rand to the cent, thousands apart by a space (South African usage). */
export function rand(amount: Decimal): string {
  const [whole, fraction] = cents(amount).abs().toFixed(2).split('.') as [string, string];
  return `${amount.isNegative() ? '-' : ''}R${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}.${fraction}`;
}

export function taxNumberWarning(): PayslipWarning {
  return {
    code: 'NO_TAX_NUMBER',
    detail:
      'No income tax number: PAYE is deducted, but the IRP5/IT3(a) tax certificate and the EMP501 ' +
      'reconciliation need it; add it to the employee',
  };
}

export function etiWageWarning(test: {
  wage: Decimal;
  minimum: Decimal;
  ordinaryHours: Decimal;
  hourlyMinimum: Decimal | null;
  minimumWage: MinimumWage;
  measure: Decimal | null;
  exempt: boolean;
}): PayslipWarning {
  const hours = test.ordinaryHours.toDecimalPlaces(2).toString();
  const hourly = test.hourlyMinimum;
  const what =
    hourly === null || (test.exempt && test.minimum.gt(hourly.times(test.ordinaryHours)))
      ? 'the fixed minimum for a wage not bound by the National Minimum Wage (R2 500 for 160 hours, pro rata: ETI Act s4(1)(b))'
      : test.measure?.eq(hourly)
        ? `${rand(hourly)} an hour under the employee's wage-regulating measure (ETI Act s4(1)(a))`
        : `${rand(hourly)} an hour, the National Minimum Wage from ${test.minimumWage.effectiveFrom} (ETI Act s4(1)(a))`;
  return {
    code: 'ETI_BELOW_MINIMUM_WAGE',
    detail:
      `No ETI: the wage ${rand(test.wage)} for ${hours} ordinary hours is below ${rand(test.minimum)}, ` +
      `${what}; claiming it would be penalised at 100% (s4(2))`,
  };
}
