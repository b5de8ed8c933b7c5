// A lead's phone in E.164, read as South African unless it carries its own country code:
// what people type (082 555 0142, +27 82 555 0142, 021-555-0100) all become +27… so that the
// import's de-duplication finds the same person however the number was written.
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** The E.164 form, or undefined when the text is no valid number. */
export function phoneE164(raw: string): string | undefined {
  const parsed = parsePhoneNumberFromString(raw, 'ZA');
  if (!parsed?.isValid()) return undefined;
  return parsed.number;
}

/** A simple user@domain.tld check: enough to refuse what is plainly not an address. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
