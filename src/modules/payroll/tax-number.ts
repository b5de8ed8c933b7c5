// SARS's income tax reference number: 10 digits; individuals' start with 0, 1, 2 or 3, and
// 9 is issued too (the BRS for IRP5 certificates accepts 0, 1, 2, 3 and 9); the 10th is a
// modulus 10 check digit, which is the Luhn rule (luhn.ts): the 1st, 3rd, 5th, 7th and 9th
// digits are doubled (a result above 9 counts as its digits' sum), the others added as they
// are, and the total must be a multiple of 10.

import { luhnValid } from './luhn.ts';

/** What is wrong with a tax number, or undefined when it is valid (read after "taxNumber: "). */
export function taxNumberProblem(n: string): string | undefined {
  if (!/^[0-9]{10}$/.test(n)) return 'must be 10 digits';
  if (!['0', '1', '2', '3', '9'].includes(n[0]!)) return 'must start with 0, 1, 2, 3 or 9';
  if (!luhnValid(n)) return 'its check digit (the 10th) does not match: a digit is wrong';
  return undefined;
}
