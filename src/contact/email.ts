/**
 * What an e-mail address is, for the whole package: the client checks addresses with it before
 * any call, the strategy reads form input with it, and the send limits count by its result.
 *
 * The rule: an address that displays as another one must not get a link. So invisible, control,
 * filler and look-alike characters are refused outright, and addresses are ASCII unless the app
 * allows international ones. An international domain goes through IDNA2008 as UTS #46 processes
 * it (`tr46`, every check on) and is then judged as the domain the link goes to, whatever its
 * spelling (case, A-labels, full-width forms): by the browser's rules (`./idnSpoof.ts`). The
 * local part goes through UTS #39 (`./confusable.ts`): one writing system, no whole-script or
 * Latin look-alikes.
 */
import type { Uts46Options } from 'tr46';
import { lazyModule } from '../lazyModule.js';
import { passesUts39 } from './confusable.js';
import { domainShownAsWritten } from './idnSpoof.js';

// UTS #46, loaded by the first international domain (plain ASCII ones never need it).
const tr46 = lazyModule<typeof import('tr46')>('tr46');

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
 * UTS #46 nontransitional processing with every check on: STD3 rules (so `/ ? # % _` and spaces
 * are refused, not cut at as a URL parser does), hyphens, bidi, joiners, DNS lengths.
 */
const UTS46: Uts46Options = {
  checkBidi: true,
  checkHyphens: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  verifyDNSLength: true,
  transitionalProcessing: false,
};
/**
 * IDNA2008's letters and digits (RFC 5892 2.1, category A): lower-case and other letters,
 * modifier letters, marks and decimal digits, with the hyphen. UTS #46 keeps symbols it calls
 * valid for IDNA2003's sake (`♥`, emoji: its NV8 status); IDNA2008 disallows them.
 */
const IDNA2008_LABEL = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}-]+$/u;
/**
 * IDNA2008's punctuation allowed in context (RFC 5892 appendix A, CONTEXTO), each with its rule:
 * a middle dot between two `l` (Catalan `l·l`), the Greek keraia before a Greek letter, Hebrew
 * geresh and gershayim after a Hebrew letter, the Katakana middle dot in a Japanese label.
 */
const CONTEXT_PUNCTUATION = /[\u00b7\u0375\u05f3\u05f4\u30fb]/u;
const IN_CONTEXT = [
  /\u00b7/gu,
  /l\u00b7(?=l)/gu,
  /\u0375/gu,
  /\u0375(?=\p{Script=Greek})/gu,
  /[\u05f3\u05f4]/gu,
  /(?<=\p{Script=Hebrew})[\u05f3\u05f4]/gu,
] as const;
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/** Each CONTEXTO character of the label meets its rule (RFC 5892 appendix A.3 to A.7). */
function contextRulesHold(label: string): boolean {
  for (let i = 0; i < IN_CONTEXT.length; i += 2) {
    const all = label.match(IN_CONTEXT[i]!)?.length ?? 0;
    if (all !== (label.match(IN_CONTEXT[i + 1]!)?.length ?? 0)) return false;
  }
  // The Katakana middle dot counts as Katakana: the label needs one other Japanese character.
  return !label.includes('\u30fb') || JAPANESE.test(label.replace(/\u30fb/gu, ''));
}

/**
 * Checks an e-mail address and gives the form to send: the local part as typed (NFC), the
 * domain in lower case and, for an international domain, as punycode A-labels (IDNA2008 by
 * UTS #46, through `tr46`), which is what DNS and SMTP without SMTPUTF8 carry.
 *
 * @example
 * readEmail('Ada@Example.COM')                            // { address: 'Ada@example.com' }
 * readEmail('ada@exam\u200bple.com')                      // { problem: 'hidden' }
 * readEmail('josé@bücher.example', { international: true }) // { address: 'josé@xn--bcher-kva.example' }
 */
export function readEmail(input: unknown, rules: EmailRules = {}): EmailReading {
  // The empty string fails below: it has no `@`.
  if (typeof input !== 'string' || input.length > MAX_LENGTH) return { problem: 'format' };
  if (HIDDEN.test(input)) return { problem: 'hidden' };
  const text = input.normalize('NFC');
  const international = rules.international === true;
  const at = text.indexOf('@');
  // Full-width forms, ligatures, circled and mathematical letters all change under NFKC. An
  // international domain is folded by UTS #46 and judged as the domain it is, so there only the
  // local part and the `@` must be as they read.
  const asTyped = international && at >= 0 ? text.slice(0, at + 1) : text;
  if (asTyped.normalize('NFKC') !== asTyped) return { problem: 'lookalike' };
  if (!international && NON_ASCII.test(text)) return { problem: 'international' };

  // A second `@` is left in the domain, where no label takes it.
  if (at < 1) return { problem: 'format' };
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > MAX_LOCAL || !(international ? LOCAL_INTERNATIONAL : LOCAL_ASCII).test(local)) {
    return { problem: 'format' };
  }
  if (international && !passesUts39(local)) return { problem: 'lookalike' };

  const ascii = asciiDomain(domain, international);
  if (typeof ascii !== 'string') return { problem: ascii.problem };
  return { address: `${local}@${ascii}` };
}

/**
 * A top-level label that can exist: letters only (RFC 1123 2.1, RFC 3696 2), or an A-label
 * (`xn--p1ai`, `.рф`). `tld-2`, `t2` or `123` are no top-level domain anywhere.
 */
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** The domain in lower-case ASCII (A-labels for international labels), or the problem with it. */
function asciiDomain(domain: string, international: boolean): string | { problem: EmailProblem } {
  const ascii = international ? tr46().toASCII(domain, UTS46) : domain.toLowerCase();
  if (!ascii || ascii.length > MAX_DOMAIN) return { problem: 'format' };
  const labels = ascii.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !labels.every((l) => LDH_LABEL.test(l)) || !TLD.test(tld)) return { problem: 'format' };
  if (!labels.some((label) => label.startsWith('xn--'))) return ascii;
  // A punycode label is an international one, however it was typed.
  if (!international) return { problem: 'international' };
  // The domain the link goes to, in Unicode: every spelling of it (case, A-labels, full-width
  // forms, NFC or NFKC variants) reads back to this one, so it gets one verdict.
  const unicode = tr46().toUnicode(ascii, UTS46);
  if (unicode.error || tr46().toASCII(unicode.domain, UTS46) !== ascii) return { problem: 'format' };
  const uLabels = unicode.domain.split('.');
  for (const label of uLabels) {
    if (!NON_ASCII.test(label)) continue;
    const letters = label.replace(new RegExp(CONTEXT_PUNCTUATION.source, 'gu'), '');
    if (!IDNA2008_LABEL.test(letters) || !contextRulesHold(label)) return { problem: 'format' };
    if (label.normalize('NFKC') !== label || HIDDEN.test(label)) return { problem: 'lookalike' };
  }
  if (!domainShownAsWritten(uLabels, tld)) return { problem: 'lookalike' };
  return ascii;
}
