/**
 * UTS #39 (Unicode Security Mechanisms) checks for one part of an international e-mail address:
 * the local part, or one label of the domain (src/contact/idnSpoof.ts adds the browser's rules
 * for labels). Scripts, Identifier_Status and confusable prototypes come from the package's own
 * tables, generated from the current Unicode release (`./uts39Data.ts`, UNICODE_VERSION), so the
 * verdicts do not move with the Node.js version's ICU.
 *
 * A part passes when
 * - every character with a script is of a script recommended for identifiers (UAX #31, table 4);
 * - it is single-script, or "highly restrictive" (UTS #39 5.2, with ICU's augmented script sets):
 *   Latin with Han, Hiragana and Katakana (Japanese), with Han and Bopomofo, or with Han and
 *   Hangul; so Latin with Cyrillic or Greek is refused, and Latin letters with Arabic-Indic digits;
 * - its digits are of one decimal system (UTS #39 5.3, mixed numbers);
 * - it is not a whole-script confusable of an ASCII string: its skeleton (UTS #39 4) is not all
 *   ASCII while the part is not (`аррӏе` is `apple` to the eye, `раураӏ` is `paypal`);
 * - no Latin letter outside ASCII is, in either case, by itself the look-alike of one ASCII
 *   character (`ɑ` of `a`, dotless `ı` of `i`, `ʒ` whose capital `Ʒ` is `3`): `adɑm`, `exımple`
 *   and `exʒmple` are refused, `josé` and `bücher` are not.
 */
import { ALLOWED_RANGES, ASCII_CONFUSABLES, SCRIPT_NAMES, SCRIPT_RUNS, SCRIPT_SETS } from './uts39Data.js';

export { UNICODE_VERSION } from './uts39Data.js';

/** Bit of each script in a script set (`SCRIPT.Latin`, `SCRIPT.Common` ...). */
export const SCRIPT: Readonly<Record<string, number>> = Object.fromEntries(
  SCRIPT_NAMES.split(' ').map((name, i) => [name, 2 ** i]),
);
const SCRIPT_BITS = Object.entries(SCRIPT);
const bit = (name: string): number => SCRIPT[name] ?? 0;
const LATIN = bit('Latin');
const ANY_SCRIPT = bit('Common') | bit('Inherited');

/** The tables, decoded on first use: most apps never read an international address. */
interface Tables {
  /** Start of each run of one Script_Extensions set, ascending; `sets[i]` is run i's set. */
  runStarts: Uint32Array;
  runSets: Uint32Array;
  /** Allowed ranges: `allowed[2i]` to `allowed[2i + 1]`, inclusive. */
  allowed: Uint32Array;
  /** Code point to its ASCII prototype (confusables.txt). */
  prototypes: Map<number, string>;
}
let tables: Tables | undefined;

function decode(): Tables {
  const setValues = SCRIPT_SETS.split(' ').map((v) => parseInt(v, 36));
  const runs = SCRIPT_RUNS.split(',');
  const runStarts = new Uint32Array(runs.length);
  const runSets = new Uint32Array(runs.length);
  let start = 0;
  runs.forEach((run, i) => {
    const [length = '', set = ''] = run.split('.');
    runStarts[i] = start;
    runSets[i] = setValues[parseInt(set, 36)] ?? 0;
    start += parseInt(length, 36);
  });
  const ranges = ALLOWED_RANGES.split(',');
  const allowed = new Uint32Array(ranges.length * 2);
  let next = 0;
  ranges.forEach((range, i) => {
    const [gap = '', length = ''] = range.split('.');
    const first = next + parseInt(gap, 36);
    allowed[2 * i] = first;
    allowed[2 * i + 1] = first + parseInt(length, 36) - 1;
    next = first + parseInt(length, 36);
  });
  const prototypes = new Map<number, string>();
  let source = 0;
  for (const entry of ASCII_CONFUSABLES.split(' ')) {
    const colon = entry.indexOf(':');
    source += parseInt(entry.slice(0, colon), 36);
    prototypes.set(
      source,
      entry.slice(colon + 1).replace(/%([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    );
  }
  return { runStarts, runSets, allowed, prototypes };
}

/** The last index whose value is at most `cp` in an ascending array (binary search). */
function lastAtMost(values: Uint32Array, cp: number, step: number): number {
  let low = 0;
  let high = values.length / step - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((values[mid * step] ?? 0) <= cp) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Script_Extensions of a code point as a bit set over SCRIPT (0: no recommended script). */
export function scriptsOf(cp: number): number {
  const t = (tables ??= decode());
  return t.runSets[lastAtMost(t.runStarts, cp, 1)] ?? 0;
}

/** Identifier_Status=Allowed (UTS #39 3.1: the General Security Profile). */
export function isAllowed(cp: number): boolean {
  const t = (tables ??= decode());
  const i = lastAtMost(t.allowed, cp, 2);
  return (t.allowed[2 * i] ?? 1) <= cp && cp <= (t.allowed[2 * i + 1] ?? 0);
}

/**
 * The UTS #39 skeleton as far as it reads as ASCII: NFD, each character to its prototype when the
 * prototype is ASCII, NFD again. A character whose prototype is not ASCII stays as itself, which
 * is just as far from ASCII, so "is the skeleton ASCII" and "is it this ASCII domain's skeleton"
 * answer as with the whole table.
 */
export function skeleton(text: string): string {
  const prototypes = (tables ??= decode()).prototypes;
  let out = '';
  for (const char of text.normalize('NFD')) out += prototypes.get(char.codePointAt(0) ?? 0) ?? char;
  return out.normalize('NFD');
}

// The classes below each test one character (a code point), so they need no anchors.
/** Any character with a script: a letter, a mark, or a digit of some script. */
const SCRIPTED = /[\p{L}\p{M}\p{Nd}]/u;
const DIGIT = /\p{Nd}/u;
// eslint-disable-next-line no-control-regex -- the ASCII range is exactly what it names
export const ASCII = /^[\x00-\x7f]*$/;

/**
 * ICU's augmented script set of one character (UTS #39 5.1): Han also counts as the Japanese,
 * Korean and Chinese (Han with Bopomofo) writing systems, Hiragana and Katakana as Japanese,
 * Hangul as Korean, Bopomofo as Chinese. Script bits 0 to 29, then Jpan, Kore, Hanb as names.
 */
function augmented(set: number): Set<string> {
  const out = new Set<string>();
  for (const [name, b] of SCRIPT_BITS) if (set & b) out.add(name);
  if (out.has('Han')) out.add('Jpan').add('Kore').add('Hanb');
  if (out.has('Hiragana') || out.has('Katakana')) out.add('Jpan');
  if (out.has('Hangul')) out.add('Kore');
  if (out.has('Bopomofo')) out.add('Hanb');
  return out;
}

/** The scripts every set has in common (UTS #39 5.1, resolved script set). */
function resolved(sets: number[]): Set<string> | undefined {
  let common: Set<string> | undefined;
  for (const set of sets) {
    const scripts = augmented(set);
    common = common ? new Set([...common].filter((s) => scripts.has(s))) : scripts;
  }
  return common;
}

/**
 * UTS #39 5.2 at the "highly restrictive" level, as ICU computes it: one resolved script, or,
 * leaving out the characters that are Latin, one of the Japanese, Korean or Chinese systems.
 */
export function restriction(part: string): 'single' | 'highly' | 'refused' {
  const sets = scriptSets(part);
  const all = resolved(sets);
  if (!all || all.size > 0) return 'single';
  const withoutLatin = resolved(sets.filter((set) => !(set & LATIN)));
  if (!withoutLatin || ['Jpan', 'Kore', 'Hanb'].some((s) => withoutLatin.has(s))) return 'highly';
  return 'refused';
}

/** Script_Extensions of each character with a script, leaving out Common and Inherited ones. */
function scriptSets(part: string): number[] {
  const sets: number[] = [];
  for (const char of part) {
    if (!SCRIPTED.test(char)) continue;
    const set = scriptsOf(char.codePointAt(0) ?? 0);
    // A character of no recommended script has the empty set: no single script, covered by none.
    if (!(set & ANY_SCRIPT)) sets.push(set);
  }
  return sets;
}

/** A non-ASCII Latin letter that is, in small or capital form, one ASCII character to the eye. */
export function isLatinLookalike(char: string): boolean {
  const cp = char.codePointAt(0) ?? 0;
  if (cp < 0x80 || !(scriptsOf(cp) & LATIN)) return false;
  return [char, char.toUpperCase(), char.toLowerCase()].some((form) => {
    const look = skeleton(form);
    return look.length === 1 && ASCII.test(look);
  });
}

/** Digits of more than one decimal system (UTS #39 5.3). */
export function mixesNumberSystems(part: string): boolean {
  let zero: number | undefined;
  for (const char of part) {
    if (!DIGIT.test(char)) continue;
    const z = digitZero(char);
    if (zero !== undefined && z !== zero) return true;
    zero = z;
  }
  return false;
}

/** True when the part's skeleton is all ASCII while the part is not (a whole-script confusable of ASCII). */
export function readsAsAscii(part: string): boolean {
  return !ASCII.test(part) && ASCII.test(skeleton(part));
}

/** True when `part` passes every check above (see the file's comment). */
export function passesUts39(part: string): boolean {
  if (ASCII.test(part)) return true;
  if (mixesNumberSystems(part) || restriction(part) === 'refused') return false;
  for (const char of part) if (isLatinLookalike(char)) return false;
  return !readsAsAscii(part);
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
