// The South African identity number, YYMMDD SSSS C A Z (13 digits): the date of birth, a
// sequence (0000-4999 female, 5000-9999 male), citizenship (0 citizen, 1 permanent resident,
// 2 refugee), a digit once used for race (now 8 or 9, not checked), and a Luhn check digit.
// The century is not in the number: the birth is taken as the latest of 19YY and 20YY that is
// not after today (someone born "260101" is a baby of 2026 after 1 January 2026, else 1926).

import { luhnValid } from './luhn.ts';

export type ZaIdCheck = { ok: true; dateOfBirth: string } | { ok: false; reason: string };

function realDay(year: number, month: number, day: number): string | undefined {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day)
    return undefined;
  return d.toISOString().slice(0, 10);
}

/**
 * Checks an ID number and gives the date of birth it carries. `today` (YYYY-MM-DD) chooses the
 * century. Reasons read after the field name: "idNumber: <reason>".
 */
export function checkZaIdNumber(id: string, today: string): ZaIdCheck {
  if (!/^[0-9]{13}$/.test(id)) return { ok: false, reason: 'must be 13 digits' };
  const yy = Number(id.slice(0, 2));
  const month = Number(id.slice(2, 4));
  const day = Number(id.slice(4, 6));
  const recent = realDay(2000 + yy, month, day);
  const earlier = realDay(1900 + yy, month, day);
  // 29 February of a year 19YY that is not a leap year (1900) but 20YY is (2000) counts too.
  const dateOfBirth = recent && recent <= today ? recent : earlier;
  if (!dateOfBirth) {
    return { ok: false, reason: `its first six digits (${id.slice(0, 6)}) are not a date of birth YYMMDD` };
  }
  if (!['0', '1', '2'].includes(id[10]!)) {
    return {
      ok: false,
      reason: 'its 11th digit (citizenship) must be 0 (citizen), 1 (permanent resident) or 2 (refugee)',
    };
  }
  if (!luhnValid(id))
    return { ok: false, reason: 'its check digit (the 13th) does not match: a digit is wrong' };
  return { ok: true, dateOfBirth };
}
