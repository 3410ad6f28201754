/**
 * The transform behind `npm run generate:confusables` (scripts/generate-confusables.ts): the
 * published Unicode Security Mechanisms (UTS #39) and Character Database files in, the source of
 * src/contact/uts39Data.ts out. Pure (text in, text out), so test/contact/uts39Data.test.ts runs
 * it on the committed source files and fails when the generated module and the generator disagree.
 *
 * What the tables keep, and why it is enough (the checks live in src/contact/confusable.ts and
 * src/contact/idnSpoof.ts):
 * - Script_Extensions of every code point, as a bit set of the scripts UAX #31 recommends for
 *   identifiers plus Common and Inherited; any other script is "no recommended script" (0).
 * - Identifier_Status=Allowed (IdentifierStatus.txt), as ranges.
 * - confusables.txt's mappings whose prototype is ASCII only. The package compares skeletons with
 *   ASCII alone (is a part's skeleton all ASCII; does a hostname's skeleton match a well-known
 *   domain's), and a character whose prototype is not ASCII keeps the skeleton non-ASCII whether
 *   it is mapped or left as itself, so those mappings cannot change a verdict.
 * - Chromium's top domains (its "top bucket"), lower-cased, for the skeleton comparison.
 */

/** The files the tables are made from, as published. */
export interface Uts39Sources {
  /** security/<version>/confusables.txt */
  confusables: string;
  /** security/<version>/IdentifierStatus.txt */
  identifierStatus: string;
  /** ucd/<version>/Scripts.txt */
  scripts: string;
  /** ucd/<version>/ScriptExtensions.txt */
  scriptExtensions: string;
  /** Chromium's top-bucket domains, one a line, `#` comments. */
  topDomains: string;
}

/**
 * UAX #31 table 4 (recommended scripts), then Common and Inherited: bit i of a script set is
 * script i. Long names as Scripts.txt spells them, short ones as ScriptExtensions.txt does.
 */
export const SCRIPTS: ReadonlyArray<readonly [long: string, short: string]> = [
  ['Latin', 'Latn'], ['Greek', 'Grek'], ['Cyrillic', 'Cyrl'], ['Armenian', 'Armn'], ['Hebrew', 'Hebr'],
  ['Arabic', 'Arab'], ['Thaana', 'Thaa'], ['Devanagari', 'Deva'], ['Bengali', 'Beng'], ['Gurmukhi', 'Guru'],
  ['Gujarati', 'Gujr'], ['Oriya', 'Orya'], ['Tamil', 'Taml'], ['Telugu', 'Telu'], ['Kannada', 'Knda'],
  ['Malayalam', 'Mlym'], ['Sinhala', 'Sinh'], ['Thai', 'Thai'], ['Lao', 'Laoo'], ['Tibetan', 'Tibt'],
  ['Myanmar', 'Mymr'], ['Georgian', 'Geor'], ['Hangul', 'Hang'], ['Ethiopic', 'Ethi'], ['Khmer', 'Khmr'],
  ['Mongolian', 'Mong'], ['Hiragana', 'Hira'], ['Katakana', 'Kana'], ['Bopomofo', 'Bopo'], ['Han', 'Hani'],
  ['Common', 'Zyyy'], ['Inherited', 'Zinh'],
]; // prettier-ignore

const MAX_CODE_POINT = 0x10ffff;

/** `XXXX..YYYY ; value` or `XXXX ; value` lines (comments and blank lines skipped). */
function rangeLines(text: string): Array<{ first: number; last: number; value: string }> {
  const rows: Array<{ first: number; last: number; value: string }> = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const [range = '', value = ''] = line.split(';').map((field) => field.trim());
    const [first = '', last = first] = range.split('..');
    rows.push({ first: parseInt(first, 16), last: parseInt(last, 16), value });
  }
  return rows;
}

/** The Unicode version a file names in its header (`# Version: 17.0.0` or `# Scripts-17.0.0.txt`). */
export function versionOf(text: string): string {
  const match = /^# (?:Version: |[A-Za-z]+-)(\d+\.\d+\.\d+)/m.exec(text);
  if (!match?.[1]) throw new Error('no Unicode version in the file header');
  return match[1];
}

/** Script_Extensions of every code point as bit sets (Scripts.txt where ScriptExtensions.txt says nothing). */
function scriptSets(scripts: string, scriptExtensions: string): Uint32Array {
  const bitOfLong = new Map(SCRIPTS.map(([long], i) => [long, i]));
  const bitOfShort = new Map(SCRIPTS.map(([, short], i) => [short, i]));
  const sets = new Uint32Array(MAX_CODE_POINT + 1);
  for (const { first, last, value } of rangeLines(scripts)) {
    const bit = bitOfLong.get(value);
    if (bit !== undefined) sets.fill(2 ** bit, first, last + 1);
  }
  for (const { first, last, value } of rangeLines(scriptExtensions)) {
    let set = 0;
    for (const short of value.split(/\s+/)) {
      const bit = bitOfShort.get(short);
      if (bit !== undefined) set += 2 ** bit;
    }
    sets.fill(set, first, last + 1);
  }
  return sets;
}

/**
 * Runs of equal values over all code points, as `<length in base 36>.<value index in base 36>`
 * joined by `,`, with the distinct values listed once: `values` and `runs`.
 */
function runs(values: Uint32Array): { values: number[]; runs: string } {
  const distinct: number[] = [];
  const index = new Map<number, number>();
  const out: string[] = [];
  let start = 0;
  for (let cp = 1; cp <= values.length; cp += 1) {
    if (cp < values.length && values[cp] === values[start]) continue;
    const value = values[start] ?? 0;
    if (!index.has(value)) {
      index.set(value, distinct.length);
      distinct.push(value);
    }
    out.push(`${(cp - start).toString(36)}.${(index.get(value) ?? 0).toString(36)}`);
    start = cp;
  }
  return { values: distinct, runs: out.join(',') };
}

/** Allowed ranges as `<gap before>.<length>` pairs in base 36, joined by `,`. */
function allowedRanges(identifierStatus: string): string {
  const allowed = rangeLines(identifierStatus)
    .filter((row) => row.value === 'Allowed')
    .sort((a, b) => a.first - b.first);
  const merged: Array<{ first: number; last: number }> = [];
  for (const row of allowed) {
    const previous = merged.at(-1);
    if (previous && row.first === previous.last + 1) previous.last = row.last;
    else merged.push({ first: row.first, last: row.last });
  }
  let next = 0;
  return merged
    .map(({ first, last }) => {
      const pair = `${(first - next).toString(36)}.${(last - first + 1).toString(36)}`;
      next = last + 1;
      return pair;
    })
    .join(',');
}

/** A prototype's ASCII characters, letters and digits as themselves, the rest as `%XX`. */
function escapeTarget(target: string): string {
  return [...target]
    .map((char) => (/[A-Za-z0-9]/.test(char) ? char : `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`))
    .join('');
}

/**
 * confusables.txt's mappings to ASCII prototypes, as `<source minus previous source, base 36>:<target>`
 * joined by spaces (sources ascending).
 */
function asciiConfusables(confusables: string): { count: number; text: string } {
  const rows: Array<{ source: number; target: string }> = [];
  for (const raw of confusables.replace(/^\ufeff/, '').split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const [source = '', target = ''] = line.split(';').map((field) => field.trim());
    const prototype = String.fromCodePoint(...target.split(/\s+/).map((hex) => parseInt(hex, 16)));
    // eslint-disable-next-line no-control-regex -- the ASCII range is exactly what it names
    if (/^[\x00-\x7f]+$/.test(prototype)) rows.push({ source: parseInt(source, 16), target: prototype });
  }
  rows.sort((a, b) => a.source - b.source);
  let previous = 0;
  const text = rows
    .map(({ source, target }) => {
      const entry = `${(source - previous).toString(36)}:${escapeTarget(target)}`;
      previous = source;
      return entry;
    })
    .join(' ');
  return { count: rows.length, text };
}

/** The top domains, lower-cased, sorted, joined by spaces. */
function topDomainList(topDomains: string): { count: number; text: string } {
  const domains = [
    ...new Set(
      topDomains
        .split('\n')
        .map((line) => line.replace(/#.*/, '').trim().toLowerCase())
        .filter(Boolean),
    ),
  ].sort();
  return { count: domains.length, text: domains.join(' ') };
}

/** A string literal in the quotes prettier would keep (the data holds no quote or backslash). */
function literal(text: string): string {
  if (/['\\\n]/.test(text)) throw new Error('a table would need escaping');
  return `'${text}'`;
}

/** The generated module's source text (prettier-clean as written). */
export function uts39Module(sources: Uts39Sources): string {
  const versions = new Set(
    [sources.confusables, sources.identifierStatus, sources.scripts, sources.scriptExtensions].map(versionOf),
  );
  if (versions.size !== 1) throw new Error(`the source files are of different versions: ${[...versions].join(', ')}`);
  const [version = ''] = versions;
  const scripts = runs(scriptSets(sources.scripts, sources.scriptExtensions));
  const confusables = asciiConfusables(sources.confusables);
  const domains = topDomainList(sources.topDomains);
  return [
    '// Generated by scripts/generate-confusables.ts (npm run generate:confusables) from the files in',
    `// scripts/data/: Unicode ${version} (confusables.txt, IdentifierStatus.txt, Scripts.txt,`,
    "// ScriptExtensions.txt) and Chromium's top-bucket domains. Do not edit: change the generator or the",
    '// data and run it again; test/contact/uts39Data.test.ts fails until this file matches.',
    '',
    '/** The Unicode version of every table below. */',
    `export const UNICODE_VERSION = '${version}';`,
    '',
    '/** Bit i of a script set: UAX #31 recommended scripts, then Common and Inherited; space-separated. */',
    `export const SCRIPT_NAMES =\n  ${literal(SCRIPTS.map(([long]) => long).join(' '))};`,
    '',
    '/** The distinct Script_Extensions sets, as bit sets over SCRIPT_NAMES, base 36, space-separated. */',
    `export const SCRIPT_SETS =\n  ${literal(scripts.values.map((v) => v.toString(36)).join(' '))};`,
    '',
    '/** Script_Extensions from U+0000 on: runs of `<length>.<index in SCRIPT_SETS>`, base 36, `,` between. */',
    `export const SCRIPT_RUNS =\n  ${literal(scripts.runs)};`,
    '',
    '/** Identifier_Status=Allowed: `<gap before>.<length>` ranges, base 36, `,` between. */',
    `export const ALLOWED_RANGES =\n  ${literal(allowedRanges(sources.identifierStatus))};`,
    '',
    `/** The ${confusables.count} confusables.txt mappings to an ASCII prototype: \`<source delta, base 36>:<prototype>\`. */`,
    `export const ASCII_CONFUSABLES =\n  ${literal(confusables.text)};`,
    '',
    `/** Chromium's ${domains.count} top-bucket domains, space-separated. */`,
    `export const TOP_DOMAINS =\n  ${literal(domains.text)};`,
    '',
  ].join('\n');
}
