import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** A mobile number split the way userInfo presents it. */
export interface PhoneParts {
  /** With a plus sign, e.g. `+91`. */
  countryCode: string;
  /** Without the country code, e.g. `9876543210`. */
  national: string;
  /** E.164 with a plus sign, e.g. `+919876543210`. */
  international: string;
}

/**
 * Splits digits-with-country-code into parts by the numbering plans of libphonenumber-js (the
 * country code of `+4915123456789` is 49, of `+2908999` 290), never by counting digits.
 * Digits no plan knows keep a 1-to-3-digit guess (the emulator accepts them for tests).
 */
export function splitPhone(digits: string): PhoneParts {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (parsed) {
    return {
      countryCode: `+${parsed.countryCallingCode}`,
      national: parsed.nationalNumber,
      international: `+${digits}`,
    };
  }
  const ccLength = digits.length > 10 ? Math.min(digits.length - 10, 3) : 2;
  return {
    countryCode: `+${digits.slice(0, ccLength)}`,
    national: digits.slice(ccLength),
    international: `+${digits}`,
  };
}
