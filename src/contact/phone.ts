/**
 * What a mobile number is, for the whole package: the client checks numbers with it before any
 * call, the strategy reads form input with it, and profiles show numbers through it.
 * (The emulator keeps its own rule, so a bug here cannot hide behind the same bug there.)
 */

/** Separators people type between digits: spaces, dashes, brackets and dots. */
const SEPARATORS = /[\s\-().]/g;
/** The service's form: digits with the country code, no plus sign (ITU-T E.164 allows up to 15). */
const SERVICE_DIGITS = /^\d{8,15}$/;

/**
 * The number as the service wants it (digits with the country code, no `+`), or `undefined`
 * when `input` is not one. Separators and one leading `+` are dropped.
 *
 * @example
 * serviceDigits('+91 98765-43210') // '919876543210'
 */
export function serviceDigits(input: unknown): string | undefined {
  if (typeof input !== 'string' || input.length > 64) return undefined;
  let digits = input.replace(SEPARATORS, '');
  if (digits.startsWith('+')) digits = digits.slice(1);
  return SERVICE_DIGITS.test(digits) ? digits : undefined;
}

/**
 * The service sends mobile numbers as digits with the country code and no plus sign; the
 * profile uses E.164 (`+` and digits) everywhere so apps can compare numbers as they store them.
 */
export function toE164(value: string): string {
  const digits = value.startsWith('+') ? value.slice(1) : value;
  return `+${digits}`;
}
