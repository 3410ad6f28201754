/**
 * What a mobile number is, for the whole package: the client checks numbers with it before any
 * call, the strategy reads form input with it, the send limits count by it, and profiles show
 * numbers through it. It is the only importer of libphonenumber-js, so all of them agree.
 * (The emulator keeps its own rule, so a bug here cannot hide behind the same bug there.)
 *
 * Every number that leaves this file is E.164: `+` and digits, e.g. `+919876543210`.
 */
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode, NumberType } from 'libphonenumber-js/max';

/**
 * An ISO 3166-1 alpha-2 code libphonenumber-js knows, for `defaultCountry`.
 *
 * @example
 * const country: CountryCode = 'IN';
 */
export type { CountryCode };

/** Why a number was not accepted; each gets its own message where a person sees it. */
export type PhoneProblem =
  /** Characters no phone number has (letters, an extension, invisible or full-width characters). */
  | 'format'
  /** National input (no `+` or `00`) and no default country to read it in. */
  | 'countryCode'
  /** Not a valid number of its country (a digit too many or too few, a range not in use). */
  | 'invalid'
  /** A valid number of a kind no one reads a link on: premium-rate, toll-free, shared-cost, pager ... */
  | 'kind';

/** A number read as E.164, or why it was not. */
export type PhoneReading = { e164: string; problem?: undefined } | { e164?: undefined; problem: PhoneProblem };

/** Longer input is no phone number (E.164 has at most 15 digits; separators do not triple it). */
const MAX_INPUT_LENGTH = 64;
/**
 * Only ASCII digits, the separators people type (space, dash, brackets, dot, slash) and one
 * leading `+`. libphonenumber-js alone would read `+1 415 555 0123 abc`, `tel:` URIs, extensions
 * and full-width or Arabic-Indic digits: a number must look like one to the person who typed it.
 */
const TYPED = /^\+?[0-9 ()./-]+$/;
const SEPARATORS = /[ ()./-]/g;
/**
 * Kinds that cannot receive a sign-in link by WhatsApp or SMS, or that cost the sender more:
 * premium-rate numbers are how SMS pumping earns its money.
 */
const REFUSED_KINDS: ReadonlySet<NumberType> = new Set<NumberType>([
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'PAGER',
  'UAN',
  'VOICEMAIL',
]);

/**
 * True for an ISO 3166-1 alpha-2 code libphonenumber-js has a numbering plan for (`'US'`, `'IN'`).
 *
 * @example
 * isCountryCode('IN') // true
 * isCountryCode('in') // false: codes are upper case
 */
export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isSupportedCountry(value);
}

/**
 * A number as a person typed it. With `+` or `00` first it is international; anything else is
 * national, read in `defaultCountry`, and without one it is refused (`countryCode`) rather than
 * guessed: `(415) 555-0123` read as international is a Swiss number.
 *
 * @example
 * readTypedPhone('+91 98765-43210')          // { e164: '+919876543210' }
 * readTypedPhone('(415) 555-0123', 'US')     // { e164: '+14155550123' }
 * readTypedPhone('(415) 555-0123')           // { problem: 'countryCode' }
 */
export function readTypedPhone(input: unknown, defaultCountry?: CountryCode): PhoneReading {
  const typed = typedDigits(input);
  if (typed === undefined) return { problem: 'format' };
  if (typed.international) return check(parsePhoneNumberFromString(`+${typed.digits}`));
  if (defaultCountry === undefined) return { problem: 'countryCode' };
  return check(parsePhoneNumberFromString(typed.digits, defaultCountry));
}

/**
 * A number in the service's form, digits with the country code (`919876543210`), or in E.164
 * (`+919876543210`, `00919876543210`): the country code is always there, so bare digits are
 * read as international. Separators are allowed, as in `readTypedPhone`.
 *
 * @example
 * readServicePhone('919876543210')   // { e164: '+919876543210' }
 * readServicePhone('+1 415 555 0123') // { e164: '+14155550123' }
 */
export function readServicePhone(input: unknown): PhoneReading {
  const typed = typedDigits(input);
  if (typed === undefined) return { problem: 'format' };
  return check(parsePhoneNumberFromString(`+${typed.digits}`));
}

/**
 * A number the service reports as verified, in E.164. It is kept when our metadata does not
 * know its range (the service's may be newer), as long as it is 8 to 15 digits with the
 * country code; `undefined` when it is not a number at all.
 *
 * @example
 * verifiedPhone('919876543210') // '+919876543210'
 */
export function verifiedPhone(input: unknown): string | undefined {
  const reading = readServicePhone(input);
  if (reading.e164 !== undefined) return reading.e164;
  const typed = typedDigits(input);
  return typed && /^[1-9]\d{7,14}$/.test(typed.digits) ? `+${typed.digits}` : undefined;
}

/**
 * The service's wire form of an E.164 number: its digits, country code first, no `+`.
 *
 * @example
 * serviceDigits('+919876543210') // '919876543210'
 */
export function serviceDigits(e164: string): string {
  return e164.startsWith('+') ? e164.slice(1) : e164;
}

/** The digits of `input` and whether it was written with `+` or `00` (international). */
function typedDigits(input: unknown): { digits: string; international: boolean } | undefined {
  if (typeof input !== 'string' || input.length > MAX_INPUT_LENGTH || !TYPED.test(input)) return undefined;
  const compact = input.replace(SEPARATORS, '');
  if (compact.startsWith('+')) return { digits: compact.slice(1), international: true };
  // No country code starts with 0, so `00` can only be the international prefix.
  if (compact.startsWith('00')) return { digits: compact.slice(2), international: true };
  return compact === '' ? undefined : { digits: compact, international: false };
}

function check(parsed: ReturnType<typeof parsePhoneNumberFromString>): PhoneReading {
  if (!parsed || !parsed.isValid()) return { problem: 'invalid' };
  const kind = parsed.getType();
  if (kind !== undefined && REFUSED_KINDS.has(kind)) return { problem: 'kind' };
  return { e164: parsed.number };
}
