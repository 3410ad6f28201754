// Mutation survivors of src/contact/phone.ts: which numbers a person can give, exactly where
// the rule's edges are.
import { describe, expect, it } from 'vitest';
import {
  isCountryCode,
  readServicePhone,
  readTypedPhone,
  serviceDigits,
  verifiedPhone,
} from '../../src/contact/phone.js';

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
