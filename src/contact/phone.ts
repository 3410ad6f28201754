/**
 * What a mobile number is, for the whole package: the client checks numbers with it before any
 * call, the strategy reads form input with it, the send limits count by it, and profiles show
 * numbers through it. It is the only importer of libphonenumber-js, so all of them agree.
 * (The emulator keeps its own rule, so a bug here cannot hide behind the same bug there.)
 *
 * Every number that leaves this file is E.164: `+` and digits, e.g. `+919876543210`.
 */
import type { Metadata, MetadataJson } from 'libphonenumber-js/core';
import type { CountryCode, NumberType } from 'libphonenumber-js/max';
import { lazyModule } from '../lazyModule.js';

// Loaded by the first number or country code read, not at import: the metadata of every
// country, with number types, is about 2.4 MB of heap that a login by e-mail never needs.
const library = lazyModule<typeof import('libphonenumber-js/max')>('libphonenumber-js/max');
const core = lazyModule<typeof import('libphonenumber-js/core')>('libphonenumber-js/core');
// The same metadata file `/max` reads (one copy): `/max` exports no `Metadata` to read it with.
const maxMetadata = lazyModule<MetadataJson>('libphonenumber-js/max/metadata');

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
  /** No `+` and no default country to read it in (national input, or a country's own international prefix). */
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
 * Spaces and dashes that pasted numbers carry (word processors, phones' contact cards, French
 * typography): no-break space U+00A0, figure space U+2007, thin space U+2009, narrow no-break
 * space U+202F; hyphen U+2010, non-breaking hyphen U+2011, figure dash U+2012, en dash U+2013,
 * minus U+2212. They are read as the ASCII space and dash. Invisible characters (zero-width space,
 * bidi controls) are not among them: they hide what a number says.
 */
const PASTED_SPACES = /[\u00a0\u2007\u2009\u202f]/g;
const PASTED_DASHES = /[\u2010-\u2013\u2212]/g;
/**
 * Only ASCII digits, the separators people type (space, dash, brackets, dot, slash) and one
 * leading `+` (or `(+`, a bracketed country code). libphonenumber-js alone would read
 * `+1 415 555 0123 abc`, `tel:` URIs, extensions and full-width or Arabic-Indic digits: a number
 * must look like one to the person who typed it.
 */
const TYPED = /^\(?\+?[0-9 ()./-]+$/;
/**
 * `(+44) 7400 123456`: the library reads a bracketed country code only inside free text.
 * (`TYPED` allows nothing between the bracket and the `+`.)
 */
const BRACKETED_COUNTRY_CODE = /^\(\+\s*([0-9]{1,3})\s*\)/;
/**
 * Kinds that cannot receive a sign-in link by WhatsApp or SMS, or that cost the sender more:
 * premium-rate numbers are how SMS pumping earns its money.
 */
const REFUSED_KINDS: ReadonlySet<NumberType | undefined> = new Set<NumberType>([
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
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) && library().isSupportedCountry(value);
}

/**
 * A number as a person typed it, read by libphonenumber-js alone. With `+` first it is
 * international. Anything else is read as it would be dialled in `defaultCountry`: that
 * country's international prefixes (`0011` in Australia, `009` in Colombia, `001`/`002` in
 * Korea, `00` in most of Europe, `011` in North America) and trunk prefix (`0`, `8`, `1`), as
 * the library's metadata has them. Without a default country anything but `+` is refused
 * (`countryCode`) rather than guessed: `(415) 555-0123` read as international is a Swiss number,
 * and `002 1 268 464 1234` with `00` taken off is a Moroccan one.
 *
 * @example
 * readTypedPhone('+91 98765-43210')          // { e164: '+919876543210' }
 * readTypedPhone('(415) 555-0123', 'US')     // { e164: '+14155550123' }
 * readTypedPhone('0011 501 622 1234', 'AU')  // { e164: '+5016221234' }: Belize, dialled from Australia
 * readTypedPhone('(415) 555-0123')           // { problem: 'countryCode' }
 */
export function readTypedPhone(input: unknown, defaultCountry?: CountryCode): PhoneReading {
  const typed = typedText(input);
  if (typed === undefined) return { problem: 'format' };
  if (typed.startsWith('+')) return read(typed);
  if (defaultCountry === undefined) return { problem: 'countryCode' };
  return ownCodeReading(typed, defaultCountry, dialledReading(typed, defaultCountry, read(typed, defaultCountry)));
}

/**
 * A number typed without `+` that starts with the country's own calling code may be a national
 * number or the international one with the `+` left out: `4915123456789` on a German site is
 * `+49 491 5123456789` read nationally and `+49 1512 3456789` read with its code, both valid.
 * When both readings are valid numbers and differ, it is refused (`countryCode`: the person is
 * asked for the `+`) rather than one of them chosen, whatever the kind of the reading with the
 * code: one refused here (`+49 1816 3083`, a UAN) still makes the national reading a guess.
 */
function ownCodeReading(typed: string, country: CountryCode, reading: PhoneReading): PhoneReading {
  if (reading.e164 === undefined) return reading;
  const digits = typed.replace(/[ ()./-]/g, '');
  if (!digits.startsWith(library().getCountryCallingCode(country))) return reading;
  const withCode = read(`+${digits}`);
  // A reading with the code of a kind refused here (toll-free, premium, pager, UAN...) is still
  // a number the person may have meant: the ambiguity counts, and the `+` is asked for.
  const differs = withCode.problem === 'kind' || (withCode.e164 !== undefined && withCode.e164 !== reading.e164);
  return differs ? { problem: 'countryCode' } : reading;
}

/**
 * Where a country's international prefixes nest (Hong Kong dials `00` and `008`, Bolivia `00`
 * and `001x`), the digits after them can be split two ways, and the library takes the longest
 * prefix: `00 81 90 1234 5678` typed in Hong Kong (Japan, after `00`) reads as `008` and
 * `1 901 234 5678`, a US number. Every split is read here. One valid number: that one. The
 * person's own grouping decides between several when the first group is itself a prefix
 * (`00 81 ...`); otherwise several different numbers are refused (`countryCode`: typed with `+`
 * it is unambiguous) rather than one of them guessed.
 */
function dialledReading(typed: string, country: CountryCode, reading: PhoneReading): PhoneReading {
  const idd = internationalPrefix(country);
  const digits = typed.replace(/[ ()./-]/g, '');
  const splits: number[] = [];
  for (let length = 1; length <= Math.min(MAX_PREFIX_DIGITS, digits.length - 1); length += 1) {
    if (idd.test(digits.slice(0, length))) splits.push(length);
  }
  // The length of the person's first group of digits (-1 when there is one group: never a split).
  const firstGroup = typed.search(/[^0-9]/);
  if (splits.includes(firstGroup)) return read(`+${digits.slice(firstGroup)}`);
  const numbers = new Set<string>();
  if (reading.e164 !== undefined) numbers.add(reading.e164);
  for (const length of splits) {
    const split = read(`+${digits.slice(length)}`);
    if (split.e164 !== undefined) numbers.add(split.e164);
  }
  if (numbers.size > 1) return { problem: 'countryCode' };
  const [only] = numbers;
  return only !== undefined ? { e164: only } : reading;
}

/** International prefixes in the library's metadata are at most 5 digits (`0011`, `00xx`, `8~10`). */
const MAX_PREFIX_DIGITS = 5;
const prefixPatterns = new Map<CountryCode, RegExp>();
let metadata: Metadata | undefined;

/** The country's international-prefix pattern, whole-string, from the library's metadata. */
function internationalPrefix(country: CountryCode): RegExp {
  let pattern = prefixPatterns.get(country);
  if (pattern === undefined) {
    metadata ??= new (core().Metadata)(maxMetadata());
    metadata.selectNumberingPlan(country);
    const source = metadata.numberingPlan?.IDDPrefix() ?? '';
    // No prefix in the metadata: a pattern that matches only the empty string, never a prefix.
    pattern = new RegExp(`^(?:${source})$`);
    prefixPatterns.set(country, pattern);
  }
  return pattern;
}

/**
 * A number in the service's form, digits with the country code (`919876543210`), or in E.164
 * (`+919876543210`): the country code is always there, so bare digits are read as
 * international. Separators are allowed, as in `readTypedPhone`; an international prefix
 * (`0091...`) is not (it is refused: which prefix it is depends on where it was dialled).
 *
 * @example
 * readServicePhone('919876543210')   // { e164: '+919876543210' }
 * readServicePhone('+1 415 555 0123') // { e164: '+14155550123' }
 */
export function readServicePhone(input: unknown): PhoneReading {
  const digits = serviceForm(input);
  if (digits === undefined) return { problem: 'format' };
  return read(`+${digits}`);
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
  const digits = serviceForm(input);
  return digits !== undefined && /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : undefined;
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

/**
 * An E.164 number as a page may show it to the person it was sent for: the country code and
 * the last four digits, the rest as dots (`+91 ••••••5678`). Without a country code the library
 * knows, the last four digits only.
 *
 * @example
 * maskedPhone('+919812345678') // '+91 ••••••5678'
 */
export function maskedPhone(e164: string): string {
  const digits = e164.replace(/\D/g, '');
  let code: string | undefined;
  try {
    code = library().parsePhoneNumberFromString(`+${digits}`)?.countryCallingCode;
  } catch {
    code = undefined;
  }
  const national = code !== undefined && digits.startsWith(code) ? digits.slice(code.length) : digits;
  const shown = national.slice(-4);
  const hidden = '•'.repeat(Math.max(2, national.length - shown.length));
  return code !== undefined ? `+${code} ${hidden}${shown}` : `${hidden}${shown}`;
}

/**
 * The input with pasted separators made ASCII and a bracketed country code unbracketed, when it
 * looks like a number; `undefined` otherwise. Prefixes are left for the library to read.
 */
function typedText(input: unknown): string | undefined {
  if (typeof input !== 'string' || input.length > MAX_INPUT_LENGTH) return undefined;
  const text = input.replace(PASTED_SPACES, ' ').replace(PASTED_DASHES, '-').trim();
  if (!TYPED.test(text) || !/[0-9]/.test(text)) return undefined;
  return text.replace(BRACKETED_COUNTRY_CODE, '+$1 ');
}

/**
 * The digits of a number in the service's form: country code first, `+` optional. An
 * international prefix (`00`, `0011`, `011` ...) is not read here: which one it is depends on
 * the country it was dialled from, so `002 1 268 464 1234` is no number to this function rather
 * than a Moroccan one. Numbers typed by people go through `readTypedPhone` with their country.
 */
function serviceForm(input: unknown): string | undefined {
  const typed = typedText(input);
  if (typed === undefined) return undefined;
  // `TYPED` leaves a `+` at most first and digits: nothing else once the separators are gone.
  const compact = typed.replace(/[ ()./-]/g, '');
  return compact.startsWith('+') ? compact.slice(1) : compact;
}

/**
 * The whole text read as one number, by libphonenumber-js, and checked. `extract: false`: the
 * library's default looks for a number inside free text and drops what is around it.
 */
function read(text: string, defaultCountry?: CountryCode): PhoneReading {
  const parsed = library().parsePhoneNumberFromString(text, { defaultCountry, extract: false });
  if (!parsed || !parsed.isValid()) return { problem: 'invalid' };
  if (REFUSED_KINDS.has(parsed.getType())) return { problem: 'kind' };
  return { e164: parsed.number };
}
