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
 * Splits digits-with-country-code into parts. The emulator has no numbering plan table, so it
 * uses a heuristic that is right for the common 10-digit national numbers (IN, US, UK mobile):
 * digits beyond the last 10 are the country code (at most 3); shorter numbers get 2.
 */
export function splitPhone(digits: string): PhoneParts {
  const ccLength = digits.length > 10 ? Math.min(digits.length - 10, 3) : 2;
  const cc = digits.slice(0, ccLength);
  return { countryCode: `+${cc}`, national: digits.slice(ccLength), international: `+${digits}` };
}
