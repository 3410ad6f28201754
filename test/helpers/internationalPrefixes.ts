import { Metadata } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

const metadata = new Metadata();
const byPattern = new Map<string, string[]>();

/**
 * Every digit string of 1 to 5 digits the country's international-prefix pattern matches, from
 * libphonenumber-js's metadata: the phone tests dial with these, so the rule under test cannot
 * have invented any.
 */
export function internationalPrefixes(country: CountryCode): string[] {
  metadata.selectNumberingPlan(country);
  const pattern = metadata.numberingPlan?.IDDPrefix() ?? '';
  let found = byPattern.get(pattern);
  if (found === undefined) {
    found = [];
    const whole = new RegExp(`^(?:${pattern})$`);
    for (let length = 1; pattern !== '' && length <= 5; length += 1) {
      for (let n = 0; n < 10 ** length; n += 1) {
        const digits = String(n).padStart(length, '0');
        if (whole.test(digits)) found.push(digits);
      }
    }
    byPattern.set(pattern, found);
  }
  return found;
}
