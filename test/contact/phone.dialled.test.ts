// Every region's example mobile dialled from other countries behind each of their international
// prefixes, written with and without the gaps people leave. Where a country's prefixes nest
// (Hong Kong's `00` and `008`, Bolivia's `00` and `001x`), the digits after them split two ways:
// each writing must read as the number meant or be refused, never as another number. The quick
// suite dials from the countries whose prefixes nest (where the misreads were) and the issue's
// long-prefix countries; `npm run
// test:slow` from every country (about 660,000 readings).
import { getCountries, getExampleNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { readTypedPhone } from '../../src/contact/phone.js';
import { THOROUGH } from '../helpers/fuzzRuns.js';
import { internationalPrefixes } from '../helpers/internationalPrefixes.js';

/** A prefix that begins another of the same country's prefixes. */
const nests = (prefixes: string[]): boolean => prefixes.some((a) => prefixes.some((b) => b !== a && b.startsWith(a)));

const regions = getCountries().flatMap((country) => {
  const example = getExampleNumber(country, examples);
  if (!example) return [];
  const code = example.countryCallingCode;
  const grouped = example.formatInternational().slice(code.length + 2);
  return [{ e164: example.number, code, grouped, nsn: example.nationalNumber }];
});

/** The countries (long prefixes: Australia `0011`, Colombia `009`, Korea `001`/`002`) and the US. */
const ALWAYS: readonly string[] = ['AU', 'CO', 'KR', 'US'];
const dialFrom = getCountries().filter(
  (country) => THOROUGH || ALWAYS.includes(country) || nests(internationalPrefixes(country)),
);

describe('dialled behind an international prefix', () => {
  it('every writing reads as the number meant or is refused, never as another', () => {
    const tally = { tries: 0, read: 0, refused: 0, other: [] as string[] };
    for (const from of dialFrom) {
      for (const prefix of internationalPrefixes(from)) {
        for (const r of regions) {
          const writings = [
            `${prefix} ${r.code} ${r.grouped}`,
            `${prefix}${r.code}${r.nsn}`,
            `${prefix} ${r.code}${r.nsn}`,
            `${prefix}-${r.code}-${r.nsn}`,
            `(${prefix}) ${r.code} ${r.grouped}`,
          ];
          for (const text of writings) {
            tally.tries += 1;
            const { e164 } = readTypedPhone(text, from);
            if (e164 === undefined) tally.refused += 1;
            else if (e164 === r.e164) tally.read += 1;
            else tally.other.push(`${from} ${JSON.stringify(text)} -> ${e164}, not ${r.e164}`);
          }
        }
      }
    }
    console.info(`dialled from ${dialFrom.length} countries: ${tally.tries} writings, ${tally.refused} refused`);
    expect(tally.other).toEqual([]);
    // Refusals are the writings that split two ways into two valid numbers (about 1 in 80 from
    // Hong Kong, Bolivia and the Seychelles, none elsewhere).
    expect(tally.read).toBeGreaterThan(tally.tries * 0.98);
  });

  it('the quick sweep covers the countries whose prefixes nest, Hong Kong among them', () => {
    expect(dialFrom).toContain('HK');
    expect(dialFrom.length).toBeGreaterThan(THOROUGH ? 200 : ALWAYS.length);
  });
});
