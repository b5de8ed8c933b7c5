// How an account number is shown wherever it is answered, printed or written into a message:
// its last four digits only. The whole number is sealed at rest (secrets.ts) and opened only
// where it must go out whole (a payment file); every module masks it with this one function
// (schema-basics.test.ts fails a second masker).

/** `••••1234`: the last four characters of the number (or of the last four kept beside it). */
export function maskedAccountNumber(number: string): string {
  return `••••${number.slice(-4)}`;
}
