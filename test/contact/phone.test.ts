// The package's one phone rule (src/contact/phone.ts), with properties over generated numbers.
// The test data come from libphonenumber-js's own example numbers, varied; the rule under test
// is ours: which input is accepted, and what E.164 it becomes.
import fc from 'fast-check';
import {
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import {
  isCountryCode,
  readServicePhone,
  readTypedPhone,
  serviceDigits,
  verifiedPhone,
} from '../../src/contact/phone.js';

const runs = { numRuns: 2_000 };

describe('readTypedPhone', () => {
  it.each([
    ['+1 (415) 555-0123', undefined, '+14155550123'],
    ['+91 98765-43210', undefined, '+919876543210'],
    ['0091 98765 43210', 'IN', '+919876543210'],
    ['0044 7400 123456', 'DE', '+447400123456'],
    ['(+44) 7400 123456', undefined, '+447400123456'],
    ['(+44)7400-123456', 'US', '+447400123456'],
    ['+44\u00a07400\u00a0123456', undefined, '+447400123456'],
    ['+33\u202f6\u202f12\u202f34\u202f56\u202f78', undefined, '+33612345678'],
    ['+1 415\u2011555\u20110123', undefined, '+14155550123'],
    ['06\u00a012\u00a034\u00a056\u00a078', 'FR', '+33612345678'],
    ['(415) 555-0123', 'US', '+14155550123'],
    ['011 41 44 668 18 00', 'US', '+41446681800'],
    ['07400 123456', 'GB', '+447400123456'],
    ['+44 (0)7400 123456', undefined, '+447400123456'],
    ['98765 43210', 'IN', '+919876543210'],
    ['+1 415 555 0123', 'IN', '+14155550123'],
  ] as const)('reads %j (default country %s) as %s', (input, country, e164) => {
    expect(readTypedPhone(input, country)).toEqual({ e164 });
  });

  it('never sends (415) 555-0123 to Switzerland: without a default country it asks for the country code', () => {
    // Read as digits with a country code (the old rule) it was +41 5555 0123: Switzerland.
    // The client reads bare digits that way still (the service's format), and refuses this one
    // before any call: it is no valid Swiss number.
    expect(readServicePhone('(415) 555-0123')).toEqual({ problem: 'invalid' });
    expect(readTypedPhone('(415) 555-0123')).toEqual({ problem: 'countryCode' });
    expect(readTypedPhone('4155550123')).toEqual({ problem: 'countryCode' });
  });

  it.each([
    ['+1 415 CALL ME', 'format'],
    ['+1 415 555 0123 ext. 5', 'format'],
    ['tel:+14155550123', 'format'],
    ['+\uff11\uff14\uff11\uff15\uff15\uff15\uff15\uff10\uff11\uff12\uff13', 'format'],
    ['+\u0661\u0664\u0661\u0665\u0665\u0665\u0665\u0660\u0661\u0662\u0663', 'format'],
    ['+1415\u200b5550123', 'format'],
    ['\u202e+14155550123', 'format'],
    ['++14155550123', 'format'],
    ['1-415+555-0123', 'format'],
    ['', 'format'],
    ['+', 'format'],
    ['()', 'format'],
    ['(+)', 'format'],
    ['+44 7400 123456 / 020 7946 0000', 'invalid'],
    [`+${'1'.repeat(70)}`, 'format'],
    ['+1 123 456 7890', 'invalid'],
    ['+44 7700 900123', 'invalid'],
    ['+91 98765', 'invalid'],
    ['+1 900 555 0100', 'kind'],
    ['+1 800 555 0100', 'kind'],
  ] as const)('refuses %j: %s', (input, problem) => {
    expect(readTypedPhone(input, 'US').problem ?? readTypedPhone(input).problem).toBe(problem);
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 14155550123, ['+14155550123'], {}]) {
      expect(readTypedPhone(value)).toEqual({ problem: 'format' });
    }
  });
});

describe('readServicePhone, verifiedPhone, serviceDigits', () => {
  it("reads the service's digits (the country code is in them) and E.164 alike", () => {
    expect(readServicePhone('919876543210')).toEqual({ e164: '+919876543210' });
    expect(readServicePhone('+919876543210')).toEqual({ e164: '+919876543210' });
    expect(serviceDigits('+919876543210')).toBe('919876543210');
  });

  it('keeps a number the service verified even when the metadata does not know its range', () => {
    expect(verifiedPhone('447700900123')).toBe('+447700900123');
    expect(verifiedPhone('not a number')).toBeUndefined();
    expect(verifiedPhone('12')).toBeUndefined();
  });

  it('knows country codes in upper case only', () => {
    expect(isCountryCode('IN')).toBe(true);
    expect(isCountryCode('in')).toBe(false);
    expect(isCountryCode('XX')).toBe(false);
    expect(isCountryCode('USA')).toBe(false);
  });
});

// ---------------------------------------------------------------- properties

/** Countries whose example mobile number is one the rule accepts. */
const COUNTRIES = getCountries().filter((c) => {
  const example = getExampleNumber(c, examples);
  return example !== undefined && readServicePhone(example.number).e164 === example.number;
});

/** A valid number: a country's example mobile number with its last digits changed, kept when still accepted. */
const validNumber = fc
  .record({
    country: fc.constantFrom(...COUNTRIES),
    tail: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 3 }),
  })
  .map(({ country, tail }) => {
    const example = getExampleNumber(country, examples)!.number;
    const e164 = example.slice(0, example.length - tail.length) + tail.join('');
    return { country, e164 };
  })
  .filter(({ e164 }) => readServicePhone(e164).e164 === e164);

const SEPARATORS = [' ', '-', '.', '(', ')', '/'];
/** `text` with separators sprinkled between its characters (never before a leading `+`). */
function sprinkle(text: string, seeds: number[]): string {
  let out = '';
  [...text].forEach((char, i) => {
    out += char;
    const seed = seeds[i % seeds.length] ?? 0;
    if (char !== '+' && seed % 3 === 0) out += SEPARATORS[seed % SEPARATORS.length];
  });
  return out;
}

/** The ways a person writes a number: E.164, international, 00, national in its country. */
const typedForm = fc
  .record({
    n: validNumber,
    form: fc.constantFrom('e164', 'international', '00', 'national'),
    seeds: fc.array(fc.nat(30), { minLength: 1, maxLength: 8 }),
  })
  .map(({ n, form, seeds }) => {
    const parsed = parsePhoneNumberFromString(n.e164)!;
    const text =
      form === 'e164'
        ? sprinkle(n.e164, seeds)
        : form === '00'
          ? sprinkle(`+${n.e164.slice(1)}`, seeds)
          : form === 'international'
            ? parsed.formatInternational()
            : parsed.formatNational();
    return { ...n, form, text, country: form === 'national' ? n.country : undefined };
  });

describe('phone properties', () => {
  it('every accepted number round-trips: each way of writing it reads back as the same E.164', () => {
    fc.assert(
      fc.property(typedForm, ({ e164, text, country }) => {
        expect(readTypedPhone(text, country as CountryCode | undefined)).toEqual({ e164 });
        // ... and from the output: E.164 and the service's digits read back unchanged.
        expect(readTypedPhone(e164)).toEqual({ e164 });
        expect(readServicePhone(serviceDigits(e164))).toEqual({ e164 });
      }),
      runs,
    );
  });

  it('two inputs that mean different numbers never map to one E.164', () => {
    fc.assert(
      fc.property(typedForm, typedForm, (a, b) => {
        fc.pre(a.e164 !== b.e164);
        const ra = readTypedPhone(a.text, a.country as CountryCode | undefined).e164;
        const rb = readTypedPhone(b.text, b.country as CountryCode | undefined).e164;
        expect(ra).not.toBe(rb);
      }),
      runs,
    );
  });

  /** True when `short` is `long` with some characters left out (none invented, none reordered). */
  const isSubsequence = (short: string, long: string) => {
    let i = 0;
    for (const char of long) if (char === short[i]) i += 1;
    return i === short.length;
  };

  it('accepted free input is valid E.164 made only of digits the person typed', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789 -().+/'.split('')), minLength: 1, maxLength: 22 }),
        fc.constantFrom<CountryCode | undefined>(undefined, 'US', 'GB', 'IN', 'DE'),
        (text, country) => {
          const { e164 } = readTypedPhone(text, country);
          if (e164 === undefined) return;
          expect(e164).toMatch(/^\+[1-9]\d{6,14}$/);
          expect(readServicePhone(e164)).toEqual({ e164 });
          const typed = text.replace(/\D/g, '');
          // Typed with `+` or an international prefix, every digit was typed; a national number
          // gets its country's calling code, which was not.
          const international = isSubsequence(e164.slice(1), typed);
          if (text.trim().startsWith('+') || country === undefined) expect(international).toBe(true);
          if (!international) {
            const added = getCountryCallingCode(country!);
            expect(e164.slice(1, 1 + added.length)).toBe(added);
            expect(isSubsequence(e164.slice(1 + added.length), typed)).toBe(true);
          }
        },
      ),
      runs,
    );
  });
});

// Which numbers a person can give, exactly where
// the rule's edges are.

describe('numbers no one reads a link on', () => {
  it.each([
    ['premium-rate', '+19005550100'],
    ['toll-free', '+18005550100'],
    ['shared-cost', '+33810123456'],
    ['pager', '+447640123456'],
    ['universal access (UAN)', '+445512345678'],
    ['voicemail', '+41860123456789'],
  ])('refuses a %s number as its kind', (_kind, e164) => {
    expect(readTypedPhone(e164)).toEqual({ problem: 'kind' });
    expect(readServicePhone(e164.slice(1))).toEqual({ problem: 'kind' });
  });

  it('accepts a personal number (UK 070), which reaches a phone', () => {
    expect(readTypedPhone('+447012345678')).toEqual({ e164: '+447012345678' });
  });
});

describe('the input length', () => {
  it('reads 64 characters (spaces around a number included), refuses 65', () => {
    const padded = `+447400123456${' '.repeat(51)}`;
    expect(padded).toHaveLength(64);
    expect(readTypedPhone(padded)).toEqual({ e164: '+447400123456' });
    expect(readTypedPhone(`${padded} `)).toEqual({ problem: 'format' });
  });
});

describe('what a person types around a number', () => {
  it('reads a number with spaces before it, pasted ones too', () => {
    expect(readTypedPhone(' +44 7400 123456')).toEqual({ e164: '+447400123456' });
    expect(readTypedPhone('\u00a0+44 7400 123456')).toEqual({ e164: '+447400123456' });
  });

  it('reads a bracketed country code with spaces inside the bracket', () => {
    expect(readTypedPhone('(+44 ) 7400 123456')).toEqual({ e164: '+447400123456' });
    expect(readTypedPhone('(+ 44) 7400 123456')).toEqual({ e164: '+447400123456' });
  });

  it.each([
    ['figure space', '\u2007'],
    ['thin space', '\u2009'],
    ['no-break space', '\u00a0'],
    ['hyphen', '\u2010'],
    ['non-breaking hyphen', '\u2011'],
    ['figure dash', '\u2012'],
    ['en dash', '\u2013'],
    ['minus sign', '\u2212'],
  ])('a pasted %s groups digits like a typed one: the prefix group decides in Hong Kong', (_name, gap) => {
    const text = ['00', '81', '90', '1234', '5678'].join(gap);
    expect(readTypedPhone(text, 'HK')).toEqual({ e164: '+819012345678' });
  });
});

describe("the service's form", () => {
  it('is digits with the country code; anything else is no number (format), not an invalid one', () => {
    expect(readServicePhone('four one five')).toEqual({ problem: 'format' });
    expect(readServicePhone('')).toEqual({ problem: 'format' });
  });

  it('a verified number is kept in E.164 as the metadata reads it, or as 8 to 15 digits not starting with 0', () => {
    expect(verifiedPhone('+44 (0)7400 123456')).toBe('+447400123456');
    expect(verifiedPhone('0123456789')).toBeUndefined();
    expect(verifiedPhone('1'.repeat(16))).toBeUndefined();
    expect(verifiedPhone('1'.repeat(15))).toBe(`+${'1'.repeat(15)}`);
  });

  it("serviceDigits leaves digits without a '+' as they are", () => {
    expect(serviceDigits('919876543210')).toBe('919876543210');
  });

  it('a country code is a string: a list holding one is not', () => {
    expect(isCountryCode(['IN'])).toBe(false);
  });
});

describe('dialled from Hong Kong, where 00 and 008 are both prefixes', () => {
  it('reads the one split that is a valid number when the longest prefix gives none', () => {
    // After 008 it is +1 312345678 (no US number); after 00, a Tokyo number.
    expect(readTypedPhone('00813 1234 5678', 'HK')).toEqual({ e164: '+81312345678' });
    expect(readTypedPhone('0081312345678', 'HK')).toEqual({ e164: '+81312345678' });
  });

  it('says why when no split is a number', () => {
    expect(readTypedPhone('0012', 'HK')).toEqual({ problem: 'invalid' });
  });
});

describe('two readings, the one with the country code of a kind refused here', () => {
  // Found in libphonenumber-js/max's metadata: digits typed without `+` that start with the
  // site's own calling code, valid read nationally, and valid read with the code as a number
  // of a refused kind. Either could be meant: the `+` is asked for, never the national sent.
  it.each([
    ['DE', '4918163083', '+4918163083', 'UAN'],
    ['DE', '49169655', '+49169655', 'PAGER'],
    ['BR', '5540079991', '+5540079991', 'SHARED_COST'],
    ['BR', '55900166671', '+55900166671', 'PREMIUM_RATE'],
    ['NL', '318007363', '+318007363', 'TOLL_FREE'],
    ['VN', '841992905', '+841992905', 'UAN'],
    ['XK', '38380021607', '+38380021607', 'TOLL_FREE'],
  ] as const)('%s %s: refused asking for the +, not sent to the national reading', (country, typed, withCode, kind) => {
    const parsed = parsePhoneNumberFromString(withCode);
    expect(parsed?.isValid()).toBe(true);
    expect(parsed?.getType()).toBe(kind);
    expect(readTypedPhone(typed, country)).toEqual({ problem: 'countryCode' });
    // Typed with its `+`, the number is read as it is, and refused for its kind.
    expect(readTypedPhone(withCode, country)).toEqual({ problem: 'kind' });
  });
});
