/**
 * The browser's rules for an international domain: whether Chromium's IDN spoof checker
 * (components/url_formatter/spoof_checks/idn_spoof_checker.cc, as published) would show the
 * domain as written or as punycode, written here from its logic, on the package's own Unicode
 * tables (`./confusable.ts`). A link is sent only to a domain the browser that opens it would
 * show as written, and a domain is judged as it is after UTS #46 (lower case, NFC, full-width
 * and compatibility forms folded), so every spelling of one domain gets one verdict.
 *
 * Per label (Chromium's SafeToDisplayAsUnicode), a non-ASCII label is refused when
 * - a character is not Identifier_Status=Allowed, or is one Chromium takes out of that set;
 * - it repeats one nonspacing mark on a character, or mixes decimal systems (ICU's checks);
 * - its scripts are not one, nor "highly restrictive" (Latin with the Japanese, Chinese or Korean
 *   system);
 * - it has `þ` or `ð` outside .is and .fo, `ə` outside .az, a middle dot other than .cat's `l·l`;
 * - single-script: all its letters of one script are Latin look-alikes of that script's table
 *   (Cyrillic `а с е о р` ...), unless the top-level domain is of that script or is one of the
 *   script's countries (`рег.рф`, `пример.ru` are shown as written); or it is all digits and
 *   digit look-alikes (`з`, `θ`, `२`);
 * - mixed scripts: digit look-alikes, non-ASCII Latin letters next to another script, or one of
 *   Chromium's dangerous patterns (Katakana `ノ` between Latin letters, `一` beside Latin ...).
 * And the whole domain is refused when its skeleton is a well-known domain's (Chromium's top
 * domains), unless it is that domain or under it (`gõõgle.com` is, `bücher.google.com` is not).
 *
 * Stricter than Chromium (src/contact/confusable.ts, UTS #39 itself): a label whose whole UTS #39
 * skeleton is ASCII is refused under any top-level domain not of its script, as is a non-ASCII
 * Latin letter that is in either case one ASCII character to the eye.
 */
import { ASCII, isAllowed, isLatinLookalike, mixesNumberSystems, readsAsAscii, restriction, SCRIPT, scriptsOf, skeleton } from './confusable.js'; // prettier-ignore
import { TOP_DOMAINS } from './uts39Data.js';

/** Characters Chromium takes out of the allowed set (its SetAllowedUnicodeSet), as ranges. */
const CHROMIUM_BLOCKED: ReadonlyArray<readonly [number, number]> = [
  [0x0138, 0x0138], // Latin kra
  [0x01cd, 0x01dc], // Latin Extended-B, Pinyin
  [0x02bb, 0x02bc], // modifier letters turned comma, apostrophe (quotation marks)
  [0x02ec, 0x02ec], // modifier letter voicing
  [0x0338, 0x0338], // combining long solidus overlay (a slash)
  [0x058a, 0x058a], // Armenian hyphen
  [0x0620, 0x0620], // Arabic Kashmiri yeh (blank in the macOS font; taken out everywhere here)
  [0x0f8c, 0x0f8f], // Tibetan transliteration signs (the same)
  [0x1c80, 0x1c8f], // Cyrillic Extended-C
  [0x1e00, 0x1e9b], // Latin Extended Additional
  [0x1f00, 0x1fff], // Greek Extended
  [0x2010, 0x2010], // hyphen
  [0x2019, 0x2019], // right single quotation mark
  [0x2027, 0x2027], // hyphenation point
  [0x30a0, 0x30a0], // Katakana-Hiragana double hyphen
  [0xa640, 0xa69f], // Cyrillic Extended-B
  [0xa720, 0xa7ff], // Latin Extended-D
];

/**
 * Chromium's whole-script confusables: per script, its letters that look like Latin ones, and
 * the ASCII top-level domains where a label made of them is that country's own (a top-level
 * domain with a letter of the script counts too). Thai: the larger set Chromium uses on Linux.
 */
const WHOLE_SCRIPT: ReadonlyArray<{ script: string; letters: string; tlds: readonly string[] }> = [
  { script: 'Armenian', letters: 'ագզէլհյոսւօՙ', tlds: ['am'] },
  { script: 'Cyrillic', letters: 'аысԁеԍһіюкјӏорԗԛѕԝхуъьҽпгѵѡ', tlds: ['bg', 'by', 'kz', 'pyc', 'ru', 'su', 'ua', 'uz'] },
  { script: 'Ethiopic', letters: 'ሀሠሰስበነተከዐዕዘጠፐꬅ', tlds: ['er', 'et'] },
  { script: 'Georgian', letters: 'იოყძხჽჿ', tlds: ['ge'] },
  { script: 'Greek', letters: 'αικνρυωηοτ', tlds: ['gr'] },
  { script: 'Hebrew', letters: 'דוחיןסװײ׳ﬦ', tlds: ['il'] },
  { script: 'Bengali', letters: '০৭', tlds: [] },
  { script: 'Devanagari', letters: 'ऽ०ॱ', tlds: [] },
  { script: 'Gujarati', letters: 'ડટ૦૧', tlds: [] },
  { script: 'Gurmukhi', letters: '੦੧', tlds: [] },
  { script: 'Kannada', letters: 'ಽ೦೧', tlds: [] },
  { script: 'Malayalam', letters: 'ടഠധനറ൦', tlds: [] },
  { script: 'Oriya', letters: 'ଠ୦୮', tlds: [] },
  { script: 'Tamil', letters: 'டப௦', tlds: [] },
  { script: 'Telugu', letters: '౦౧', tlds: [] },
  { script: 'Myanmar', letters: 'ခဂငထပဝ၀၂ၔၜ\u1090\u1091\u1095\u1096\u1097', tlds: ['mm'] },
  { script: 'Thai', letters: 'ทนบพรหเแ๐ดลปฟม', tlds: ['th'] },
]; // prettier-ignore

/** Common words that are whole-script confusables but like no Latin word (Chromium's list). */
const ALLOWED_WORDS: ReadonlySet<string> = new Set(['секс', 'как', 'коса', 'курс', 'парк', 'такий', 'укроп', 'сахарок', 'покраска']); // prettier-ignore

/** Characters that are, or look like, digits: a label of digits and these alone is refused. */
const DIGIT_LOOKALIKES = new Set('θ२২੨૨೩೭շзҙӡउওਤ੩૩౩ဒვპੜკ੫丩ㄐճ৪੪୫૭୨౨');
const KANA_EXCEPTIONS = /[\u3078-\u307a\u30d8-\u30da\u30fb-\u30fe]/u;
const COMBINING_DIACRITICS = /[\u0300-\u0339]/u;
const NONSPACING_MARK = /\p{Mn}/u;

/**
 * Chromium's dangerous patterns for labels of more than one script: Japanese characters that
 * look like slashes or dashes outside Japanese text, iteration marks and the prolonged sound
 * mark out of place, three kana that look alike across Hiragana and Katakana, CJK characters
 * that look like Latin letters or signs next to other scripts, combining marks after letters
 * that are not Latin, Greek or Cyrillic, and dots above `i`, `j`, `l` and dotless `ı`.
 */
const NOT_JAPANESE = '[^\\p{scx=Kana}\\p{scx=Hira}\\p{scx=Hani}]';
const NOT_CJK = '[^\\p{scx=Kana}\\p{scx=Hira}\\p{scx=Hani}\\p{scx=Bopo}]';
const CJK_LATIN_LOOKALIKES = '[\\u4e00\\u3127\\u4e28\\u4e5b\\u4e03\\u4e05\\u5341\\u3007\\u3112\\u311a\\u311f\\u3128\\u3129\\u3108\\u31ba\\u31b3\\u5de5\\u31b2\\u8ba0\\u4e01]'; // prettier-ignore
let dangerous: RegExp | undefined;
const DANGEROUS = (): RegExp =>
  (dangerous ??= new RegExp(
    [
      `${NOT_JAPANESE}[\\u30ce\\u30f3\\u30bd\\u30be\\u4e36\\u4e40\\u4e41\\u4e3f]${NOT_JAPANESE}`,
      '[^\\p{scx=Kana}][\\u30fd\\u30fe]',
      '^[\\u30fd\\u30fe]',
      '^\\p{scx=Kana}+[\\u3078-\\u307a]\\p{scx=Kana}+$',
      '^\\p{scx=Hira}+[\\u30d8-\\u30da]\\p{scx=Hira}+$',
      '[^\\p{scx=Kana}\\p{scx=Hira}]\\u30fc',
      '^\\u30fc',
      '[a-z]\\u30fb',
      '\\u30fb[a-z]',
      `${NOT_CJK}${CJK_LATIN_LOOKALIKES}`,
      `${CJK_LATIN_LOOKALIKES}${NOT_CJK}`,
      '[^\\p{scx=Latn}\\p{scx=Grek}\\p{scx=Cyrl}][\\u0300-\\u0339]',
      '\\u0131[\\u0300-\\u0339]',
      '[\\u3099\\u309a]',
      '[ijl]\\u0307',
    ].join('|'),
    'u',
  ));

/** Latin, Greek, Cyrillic, ASCII digits, `.`, `_`, `-` and the common combining diacritics. */
function isLgc(text: string): boolean {
  const lgc = SCRIPT.Latin! | SCRIPT.Greek! | SCRIPT.Cyrillic!;
  return [...text].every((char) => {
    const cp = char.codePointAt(0) ?? 0;
    return /[0-9._-]/.test(char) || (cp >= 0x300 && cp <= 0x339) || scriptsOf(cp) & lgc;
  });
}

function isAllowedHere(cp: number): boolean {
  return isAllowed(cp) && !CHROMIUM_BLOCKED.some(([first, last]) => first <= cp && cp <= last);
}

/** ICU's invisible check: one nonspacing mark twice on the same character. */
function repeatsMark(label: string): boolean {
  let marks = new Set<string>();
  for (const char of label.normalize('NFD')) {
    if (!NONSPACING_MARK.test(char)) marks = new Set();
    else if (marks.has(char)) return true;
    else marks.add(char);
  }
  return false;
}

/** Chromium's middle-dot rule: only in .cat, and only between two `l`. */
function hasUnsafeMiddleDot(label: string, tld: string): boolean {
  const chars = [...label];
  return chars.some((c, i) => c === '\u00b7' && (tld !== 'cat' || chars[i - 1] !== 'l' || chars[i + 1] !== 'l'));
}

/** The scripts of the label's letters that the top-level domain vouches for (its script, or a country's code). */
function tldVouchesFor(script: string, tldAscii: string, tldUnicode: string): boolean {
  const b = SCRIPT[script] ?? 0;
  if ([...tldUnicode].some((char) => scriptsOf(char.codePointAt(0) ?? 0) & b)) return true;
  return WHOLE_SCRIPT.some((entry) => entry.script === script && entry.tlds.includes(tldAscii));
}

/** All letters of `script` in the label are in its Latin look-alike table (Chromium's test). */
function wholeScriptLookalike(label: string, script: string, letters: string): boolean {
  const b = SCRIPT[script] ?? 0;
  const own = [...label].filter((char) => scriptsOf(char.codePointAt(0) ?? 0) & b);
  return own.length > 0 && own.every((char) => letters.includes(char));
}

/** Digits and digit look-alikes only, at least one look-alike. */
function isDigitLookalike(label: string): boolean {
  const chars = [...label];
  return chars.some((c) => DIGIT_LOOKALIKES.has(c)) && chars.every((c) => /[0-9]/.test(c) || DIGIT_LOOKALIKES.has(c));
}

/** The scripts of a label's characters (Common and Inherited left out), by name. */
function scriptNames(label: string): string[] {
  const any = SCRIPT.Common! | SCRIPT.Inherited!;
  let union = 0;
  for (const char of label) {
    const set = scriptsOf(char.codePointAt(0) ?? 0);
    if (!(set & any)) union |= set;
  }
  return Object.keys(SCRIPT).filter((name) => union & SCRIPT[name]!);
}

/**
 * True when a browser following Chromium's rules (and the stricter ones above) would show this
 * non-ASCII label as written. `label` is a U-label as UTS #46 leaves it (lower case, NFC).
 */
export function labelShownAsWritten(label: string, tldAscii: string, tldUnicode: string): boolean {
  if (ASCII.test(label)) return true;
  for (const char of label) if (!isAllowedHere(char.codePointAt(0) ?? 0)) return false;
  if (repeatsMark(label) || mixesNumberSystems(label)) return false;
  const level = restriction(label);
  if (level === 'refused') return false;

  // Chromium's characters allowed only under one top-level domain.
  const long = [...label].length > 1;
  if (long && tldAscii !== 'is' && tldAscii !== 'fo' && /[\u00fe\u00f0]/.test(label)) return false;
  if (long && tldAscii !== 'az' && label.includes('\u0259')) return false;
  if (hasUnsafeMiddleDot(label, tldAscii)) return false;

  // Stricter than Chromium: UTS #39's own look-alike tests, with the same top-level-domain
  // allowance for scripts other than Latin.
  const icelandic = tldAscii === 'is' || tldAscii === 'fo';
  for (const char of label) if (isLatinLookalike(char) && !(icelandic && /[\u00fe\u00f0]/.test(char))) return false;
  const scripts = scriptNames(label);
  const vouched = scripts.length > 0 && !scripts.includes('Latin') && scripts.every((s) => tldVouchesFor(s, tldAscii, tldUnicode)); // prettier-ignore
  // `þ` reads as `p`: under .is and .fo it is a letter of the language, as Chromium has it.
  const icelandicWord = icelandic && /[\u00fe\u00f0]/.test(label);
  if (readsAsAscii(label) && !vouched && !icelandicWord && !ALLOWED_WORDS.has(label)) return false;

  if (level === 'single' && !KANA_EXCEPTIONS.test(label) && !COMBINING_DIACRITICS.test(label)) {
    for (const { script, letters } of WHOLE_SCRIPT) {
      if (
        wholeScriptLookalike(label, script, letters) &&
        !tldVouchesFor(script, tldAscii, tldUnicode) &&
        !ALLOWED_WORDS.has(label)
      )
        return false;
    }
    return !isDigitLookalike(label);
  }
  if (isDigitLookalike(label)) return false;
  // Non-ASCII Latin letters next to another script (an all-Latin-Greek-Cyrillic label has its
  // diacritics taken off for the top-domain comparison instead).
  const latin = SCRIPT.Latin!;
  if ([...label].some((char) => char > '\u007f' && scriptsOf(char.codePointAt(0) ?? 0) & latin) && !isLgc(label))
    return false;
  return !DANGEROUS().test(label);
}

/**
 * Chromium's additions to the confusables for the top-domain comparison: letters that look like
 * an ASCII letter or digit in the fonts a browser uses, and dashes.
 */
let extraConfusables: ReadonlyMap<string, string> | undefined;
const EXTRA_CONFUSABLES = (): ReadonlyMap<string, string> =>
  (extraConfusables ??= new Map(
    (
      'æӕ:ae ϼҏ:p ħнћңҥӈӊԋԧԩ:h ĸκкқҝҟҡӄԟ:k ŋпԥกח:n ŧтҭԏ七丅丆丁:t ƅьҍв:b ωшщพฟພຟ:w мӎ:m єҽҿၔ:e ґ:r ғӻ:f ҫင:c ' +
      'ұ丫:y χҳӽӿ乂:x ԃძ:d ԍဌ:g ടรຣຮ:s ၂:j ०০੦૦ଠ୦೦:o ৭੧૧:q บບ:u θ:0 २২੨૨೩೭շ:2 зҙӡउওਤ੩૩౩ဒვპკ:3 ੫丩ㄐ:4 ճ:6 ' +
      '৪੪୫:8 ૭୨౨:9 —一―⸺⸻:-'
    )
      .split(' ')
      .flatMap((group) => {
        const [chars = '', to = ''] = group.split(':');
        return [...chars].map((char) => [char, to] as const);
      }),
  ));
/** Letters that look like two things: each is tried both ways. */
const TWO_READINGS: ReadonlyMap<string, readonly string[]> = new Map([
  ['þ', ['b', 'p']],
  ['œ', ['ce', 'oe']],
]);

/** Chromium's diacritic removal, for hostnames of Latin, Greek and Cyrillic only. */
function withoutDiacritics(host: string): string {
  if (!isLgc(host)) return host;
  return host
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .normalize('NFC')
    .replace(/\u0142/g, 'l')
    .replace(/\u00f8/g, 'o')
    .replace(/\u0111/g, 'd');
}

/** The hostname's skeletons as Chromium's SkeletonGenerator makes them. */
function skeletons(host: string): Set<string> {
  const base = withoutDiacritics(host);
  let spellings = [''];
  const doubles = [...base].filter((char) => TWO_READINGS.has(char)).length;
  for (const char of base) {
    const readings = doubles <= 5 && base.length <= 32 ? [char, ...(TWO_READINGS.get(char) ?? [])] : [char];
    spellings = spellings.flatMap((s) => readings.map((r) => s + r)).slice(0, 128);
  }
  const out = new Set<string>();
  for (const spelling of spellings) {
    const mapped = [...spelling].map((char) => EXTRA_CONFUSABLES().get(char) ?? char).join('');
    out.add(skeleton(mapped));
    if (mapped.includes('ӏ')) out.add(skeleton(mapped.replace(/\u04cf/g, 'l')));
  }
  return out;
}

let topSkeletons: Map<string, string> | undefined;

/** The well-known domain whose skeleton the hostname has, if any (Chromium's top domains). */
export function similarTopDomain(host: string): string | undefined {
  topSkeletons ??= new Map(TOP_DOMAINS.split(' ').map((domain) => [skeleton(domain), domain]));
  for (const whole of skeletons(host)) {
    // Chromium compares the last four labels at most, then shorter endings, down to two labels.
    let labels = whole.split('.').slice(-4);
    for (; labels.length >= 2; labels = labels.slice(1)) {
      const domain = topSkeletons.get(labels.join('.'));
      if (domain === undefined) continue;
      return host === domain || host.endsWith(`.${domain}`) ? undefined : domain;
    }
  }
  return undefined;
}

/**
 * True when a browser following Chromium's rules would show this domain as written: every
 * non-ASCII label passes, and the whole is no well-known domain's look-alike. `labels` are the
 * U-labels as UTS #46 leaves them; `tldAscii` is the last label's A-label form.
 *
 * @example
 * domainShownAsWritten(['рег', 'рф'], 'xn--p1ai') // true
 * domainShownAsWritten(['аррӏе', 'com'], 'com')   // false
 */
export function domainShownAsWritten(labels: readonly string[], tldAscii: string): boolean {
  const tldUnicode = labels.at(-1) ?? '';
  if (!labels.every((label) => labelShownAsWritten(label, tldAscii, tldUnicode))) return false;
  const host = labels.join('.');
  return ASCII.test(host) || similarTopDomain(host) === undefined;
}
