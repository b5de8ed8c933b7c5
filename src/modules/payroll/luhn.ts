// The Luhn (modulus 10) check digit, which both the South African ID number and SARS's income
// tax reference number use: from the right, the check digit itself is not doubled, the digit
// before it is, and so on alternately; a doubled digit above 9 counts as the sum of its digits
// (the same as subtracting 9); the whole sum must end in 0.

/** Whether a string of digits ends in its Luhn check digit. */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const fromRight = digits.length - 1 - i;
    let d = digits.charCodeAt(i) - 48;
    if (fromRight % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
