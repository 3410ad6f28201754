/**
 * What an e-mail address is, for the whole package: the client checks addresses with it before
 * any call, the strategy reads form input with it, and the send limits count by its result.
 *
 * The rule: an address that displays as another one must not get a link. So invisible, control,
 * filler and look-alike characters are refused outright, addresses are ASCII unless the app
 * allows international ones, and an international address may not mix alphabets in a part.
 */
import { domainToASCII, domainToUnicode } from 'node:url';

/** Why an address was not accepted; each gets its own message where a person sees it. */
export type EmailProblem =
  /** Not `local@domain.tld`, or too long. */
  | 'format'
  /** Control, format, invisible, filler or space characters (U+200B, U+202E, U+3164 ...). */
  | 'hidden'
  /** Compatibility look-alikes (full-width `ａ`, ligature `ﬁ`, math `𝐚`), or mixed alphabets in one part. */
  | 'lookalike'
  /** Non-ASCII characters, or a punycode (`xn--`) domain, when international addresses are not allowed. */
  | 'international';

/** An address ready to send, or why it was not accepted. */
export type EmailReading = { address: string; problem?: undefined } | { address?: undefined; problem: EmailProblem };

export interface EmailRules {
  /** Accept non-ASCII letters (`josé@bücher.example`). Default false: ASCII only. */
  international?: boolean;
}

// RFC 5321: 254 for the whole path, 64 for the local part, 63 per DNS label, 253 per domain.
const MAX_LENGTH = 254;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

/**
 * Characters that are not visible as themselves: controls (Cc), format characters (Cf: zero-width,
 * bidi controls, soft hyphen), private use and surrogates, unassigned code points, every space
 * and line separator, Unicode's default-ignorables (U+034F, U+115F, U+1160, U+3164, U+FFA0,
 * variation selectors, tags), and U+2800, a blank Braille cell that is none of those.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Z}\p{Default_Ignorable_Code_Point}\u2800]/u;
// eslint-disable-next-line no-control-regex -- the ASCII range is exactly what it names
const NON_ASCII = /[^\x00-\x7f]/;
/** RFC 5322 dot-atom (quoted local parts are refused: no person needs one for a sign-in link). */
const ATEXT = "\\-A-Za-z0-9!#$%&'*+/=?^_`{|}~";
const LOCAL_ASCII = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`);
/** RFC 6531 adds non-ASCII characters to atext; of them only letters, marks and digits. */
const LOCAL_INTERNATIONAL = new RegExp(`^[${ATEXT}\\p{L}\\p{M}\\p{Nd}]+(?:\\.[${ATEXT}\\p{L}\\p{M}\\p{Nd}]+)*$`, 'u');
/** A DNS label in letters, digits and hyphens (RFC 1123), as the domain is once it is ASCII. */
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The scripts Unicode recommends for identifiers (UAX #31, table 4): look-alikes from the other
 * scripts (Cherokee `Ꭺ`, Lisu `ꓮ` ...) are refused. Common and Inherited (digits, marks) go with any.
 */
const RECOMMENDED_SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi',
  'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar',
  'Georgian', 'Hangul', 'Ethiopic', 'Khmer', 'Mongolian', 'Hiragana', 'Katakana', 'Bopomofo', 'Han',
].map((name) => ({ name, pattern: new RegExp(`^\\p{Script=${name}}$`, 'u') })); // prettier-ignore
/**
 * Scripts that are written together (UTS #39 "highly restrictive"): Japanese, Chinese and
 * Korean text mixes Han with its own scripts and Latin. Any other mix in one part is refused.
 */
const WRITTEN_TOGETHER = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/**
 * Checks an e-mail address and gives the form to send: the local part as typed (NFC), the
 * domain in lower case and, for an international domain, as punycode A-labels (IDNA, through
 * `node:url`'s `domainToASCII`), which is what DNS and SMTP without SMTPUTF8 carry.
 *
 * @example
 * readEmail('Ada@Example.COM')                            // { address: 'Ada@example.com' }
 * readEmail('ada@exam\u200bple.com')                      // { problem: 'hidden' }
 * readEmail('josé@bücher.example', { international: true }) // { address: 'josé@xn--bcher-kva.example' }
 */
export function readEmail(input: unknown, rules: EmailRules = {}): EmailReading {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_LENGTH) return { problem: 'format' };
  if (HIDDEN.test(input)) return { problem: 'hidden' };
  const text = input.normalize('NFC');
  // Full-width forms, ligatures, circled and mathematical letters all change under NFKC.
  if (text.normalize('NFKC') !== text) return { problem: 'lookalike' };
  const international = rules.international === true;
  if (!international && NON_ASCII.test(text)) return { problem: 'international' };

  const at = text.indexOf('@');
  if (at < 1 || at !== text.lastIndexOf('@')) return { problem: 'format' };
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > MAX_LOCAL || !(international ? LOCAL_INTERNATIONAL : LOCAL_ASCII).test(local)) {
    return { problem: 'format' };
  }
  if (international && !oneScript(local)) return { problem: 'lookalike' };

  const ascii = asciiDomain(domain, international);
  if (typeof ascii !== 'string') return { problem: ascii.problem };
  return { address: `${local}@${ascii}` };
}

/** The domain in lower-case ASCII (A-labels for international labels), or the problem with it. */
function asciiDomain(domain: string, international: boolean): string | { problem: EmailProblem } {
  // domainToASCII applies UTS #46: lower case, IDNA mapping, punycode; '' when it cannot.
  const ascii = international ? domainToASCII(domain) : domain.toLowerCase();
  if (ascii === '' || ascii.length > MAX_DOMAIN) return { problem: 'format' };
  const labels = ascii.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !labels.every((l) => LDH_LABEL.test(l)) || /^\d+$/.test(tld)) return { problem: 'format' };
  for (const label of labels) {
    if (!label.startsWith('xn--')) continue;
    // A punycode label is an international one, however it was typed.
    if (!international) return { problem: 'international' };
    const unicode = domainToUnicode(label);
    if (unicode === '' || domainToASCII(unicode) !== label) return { problem: 'format' };
    if (unicode.normalize('NFKC') !== unicode || HIDDEN.test(unicode) || !oneScript(unicode)) {
      return { problem: 'lookalike' };
    }
  }
  return ascii;
}

/** True when every letter of `part` is of a recommended script, and the scripts go together. */
function oneScript(part: string): boolean {
  const seen = new Set<string>();
  for (const char of part) {
    if (!/\p{L}/u.test(char)) continue;
    const script = RECOMMENDED_SCRIPTS.find((s) => s.pattern.test(char));
    if (!script) return false;
    seen.add(script.name);
  }
  if (seen.size <= 1) return true;
  return WRITTEN_TOGETHER.some((set) => [...seen].every((name) => set.has(name)));
}
