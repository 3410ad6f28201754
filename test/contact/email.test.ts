// The package's one e-mail rule (src/contact/email.ts): addresses that display as another one
// never get a link.
import { describe, expect, it } from 'vitest';
import { readEmail } from '../../src/contact/email.js';

const intl = { international: true };

describe('readEmail', () => {
  it.each([
    ['ada@example.com', 'ada@example.com'],
    ['Ada.Lovelace@Example.COM', 'Ada.Lovelace@example.com'],
    ['ada+news@sub.example.co.uk', 'ada+news@sub.example.co.uk'],
    ["o'brien_x-y@example.io", "o'brien_x-y@example.io"],
  ])('accepts %j as %j (domain in lower case, local part as typed)', (input, address) => {
    expect(readEmail(input)).toEqual({ address });
  });

  it.each([
    ['plain', 'not-an-email'],
    ['no dot in the domain', 'a@b'],
    ['two @', 'a@@example.com'],
    ['empty local part', '@example.com'],
    ['a dot at the end of the local part', 'ada.@example.com'],
    ['two dots', 'a..b@example.com'],
    ['an empty label', 'a@example..com'],
    ['a numeric top-level domain', 'a@1.2.3.4'],
    ['an underscore in the domain', 'a@ex_ample.com'],
    ['a label starting with -', 'a@-example.com'],
    ['a quoted local part', '"ada"@example.com'],
    ['an IP literal', 'ada@[127.0.0.1]'],
    ['a local part over 64', `${'a'.repeat(65)}@example.com`],
    ['over 254 characters', `a@${'b'.repeat(250)}.com`],
  ])('refuses %s as format', (_name, input) => {
    expect(readEmail(input)).toEqual({ problem: 'format' });
    expect(readEmail(input, intl)).toEqual({ problem: 'format' });
  });

  // Invisible, control, format, filler and space characters, each inside an otherwise fine address.
  const HIDDEN: Array<[string, string]> = [
    ['U+0000 NUL', '\u0000'],
    ['U+0009 tab', '\t'],
    ['U+000A line feed', '\n'],
    ['U+007F delete', '\u007f'],
    ['U+0085 next line', '\u0085'],
    ['U+00A0 no-break space', '\u00a0'],
    ['U+00AD soft hyphen', '\u00ad'],
    ['U+034F combining grapheme joiner', '\u034f'],
    ['U+061C Arabic letter mark', '\u061c'],
    ['U+115F Hangul choseong filler', '\u115f'],
    ['U+1160 Hangul jungseong filler', '\u1160'],
    ['U+17B4 Khmer vowel inherent aq', '\u17b4'],
    ['U+180E Mongolian vowel separator', '\u180e'],
    ['U+200B zero-width space', '\u200b'],
    ['U+200C zero-width non-joiner', '\u200c'],
    ['U+200D zero-width joiner', '\u200d'],
    ['U+200E left-to-right mark', '\u200e'],
    ['U+200F right-to-left mark', '\u200f'],
    ['U+202A left-to-right embedding', '\u202a'],
    ['U+202E right-to-left override', '\u202e'],
    ['U+2028 line separator', '\u2028'],
    ['U+2060 word joiner', '\u2060'],
    ['U+2066 left-to-right isolate', '\u2066'],
    ['U+2069 pop directional isolate', '\u2069'],
    ['U+2800 Braille pattern blank', '\u2800'],
    ['U+3000 ideographic space', '\u3000'],
    ['U+3164 Hangul filler', '\u3164'],
    ['U+FE0F variation selector 16', '\ufe0f'],
    ['U+FEFF byte order mark', '\ufeff'],
    ['U+FFA0 half-width Hangul filler', '\uffa0'],
    ['U+E0041 tag Latin capital A', '\u{e0041}'],
    ['U+E000 private use', '\ue000'],
  ];
  it.each(HIDDEN)('refuses %s in the local part and in the domain', (_name, char) => {
    for (const rules of [{}, intl]) {
      expect(readEmail(`ada${char}@example.com`, rules)).toEqual({ problem: 'hidden' });
      expect(readEmail(`ada@exam${char}ple.com`, rules)).toEqual({ problem: 'hidden' });
      expect(readEmail(`${char}ada@example.com`, rules)).toEqual({ problem: 'hidden' });
    }
  });

  // Look-alikes of ASCII letters and signs (compatibility forms: NFKC changes them).
  it.each([
    ['full-width a', 'ａda@example.com'],
    ['full-width @', 'ada＠example.com'],
    ['ligature fi', 'ﬁnn@example.com'],
    ['mathematical bold a', '𝐚da@example.com'],
    ['superscript 2', 'ada²@example.com'],
    ['Roman numeral one', 'Ⅰan@example.com'],
    ['half-width katakana', 'ｱ@example.jp'],
  ])('refuses a %s as a look-alike', (_name, input) => {
    expect(readEmail(input)).toEqual({ problem: 'lookalike' });
    expect(readEmail(input, intl)).toEqual({ problem: 'lookalike' });
  });

  // Look-alikes from other scripts: Cyrillic а/е/о/р/с, Greek ο, Armenian օ in Latin words.
  it.each([
    ['Cyrillic а in a Latin domain', 'ada@pаypal.com'],
    ['Cyrillic е in a Latin domain', 'ada@applе.com'],
    ['Cyrillic о in a Latin domain', 'ada@gооgle.com'],
    ['Greek ο in a Latin domain', 'ada@micrοsoft.com'],
    ['Armenian օ in a Latin domain', 'ada@gօogle.com'],
    ['Cyrillic р and с in a Latin local part', 'рaсo@example.com'],
    ['Latin and Cyrillic in one local part', 'иван.smith@example.com'],
    ['Cherokee Ꭺ (not a recommended script)', 'Ꭺda@example.com'],
    ['Lisu ꓮ (not a recommended script)', 'ꓮda@example.com'],
    ['a punycode label of a mixed-script domain', 'ada@xn--pypal-4ve.com'],
  ])('refuses the %s, even where international addresses are allowed', (_name, input) => {
    expect(readEmail(input, intl)).toEqual({ problem: 'lookalike' });
    expect(readEmail(input).problem).not.toBeUndefined();
  });

  // In a domain, the same forms are the domain UTS #46 folds them to: where the link goes.
  it.each([
    ['full-width full stop', 'ada@example．com'],
    ['circled e', 'ada@ⓔxample.com'],
    ['full-width letters', 'ada@ｅｘａｍｐｌｅ.com'],
  ])('reads a %s in a domain as the domain it is (refused in ASCII mode)', (_name, input) => {
    expect(readEmail(input)).toEqual({ problem: 'lookalike' });
    expect(readEmail(input, intl)).toEqual({ address: 'ada@example.com' });
  });

  it('refuses international addresses unless allowed; punycode domains count as international', () => {
    expect(readEmail('josé@example.com')).toEqual({ problem: 'international' });
    expect(readEmail('ada@bücher.example')).toEqual({ problem: 'international' });
    expect(readEmail('ada@xn--bcher-kva.example')).toEqual({ problem: 'international' });
  });

  it.each([
    ['josé@bücher.example', 'josé@xn--bcher-kva.example'],
    ['ada@BÜCHER.example', 'ada@xn--bcher-kva.example'],
    ['ada@xn--bcher-kva.example', 'ada@xn--bcher-kva.example'],
    ['иван@пример.рф', 'иван@xn--e1afmkfd.xn--p1ai'],
    ['user@例え.jp', 'user@xn--r8jz45g.jp'],
    ['user@ドメイン名例.jp', 'user@xn--eckwd4c7cu47r2wf.jp'],
    ['δοκιμή@παράδειγμα.ελ', 'δοκιμή@xn--hxajbheg2az3al.xn--qxam'],
    // Decomposed é (e + U+0301) is sent composed (NFC).
    ['jose\u0301@example.com', 'jos\u00e9@example.com'],
  ])('accepts the international %j as %j when allowed', (input, address) => {
    expect(readEmail(input, intl)).toEqual({ address });
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, ['a@example.com'], {}])
      expect(readEmail(value)).toEqual({ problem: 'format' });
  });
});

describe('international addresses: look-alikes as typed, and the real IDN top-level domains', () => {
  // Latin letters that look like one ASCII character in one of their cases: refused in both.
  it.each([
    'adam@exƷmple.com',
    'ADAM@EXƷMPLE.COM',
    'adam@exʒmple.com',
    'adam@xn--exmple-cbd.com',
    'a@Ƅank.com',
    'a@Ƨecure.com',
    'a@Ꝛeal.com',
    'a@Ꝫx.com',
    'a@Ɜx.com',
    'a@Ȝx.com',
    'a@Ꝯx.com',
  ])('%j is refused as a look-alike', (input) => {
    expect(readEmail(input, intl)).toEqual({ problem: 'lookalike' });
  });

  it('a domain gets one verdict in either case: Cyrillic ВАНК is the domain ванк, which no browser shows as Latin', () => {
    const address = 'ada@xn--80adzl.example';
    expect(readEmail('ada@ВАНК.example', intl)).toEqual({ address });
    expect(readEmail('ada@ванк.example', intl)).toEqual({ address });
    expect(readEmail(address, intl)).toEqual({ address });
  });

  it.each([
    ['почта@пример.рф', 'xn--p1ai'],
    ['ada@пример.орг', 'xn--c1avg'],
    ['ada@пример.рус', 'xn--p1acf'],
    ['ada@пример.срб', 'xn--90a3ac'],
    ['ada@пример.бг', 'xn--90ae'],
  ])('%j, under a real IDN top-level domain, is accepted (.%s)', (input, tld) => {
    expect(readEmail(input, intl).address).toMatch(new RegExp(`\\.${tld}$`));
  });

  it('those names lower down are still whole-script look-alikes (орг reads opr)', () => {
    expect(readEmail('ada@орг.example', intl)).toEqual({ problem: 'lookalike' });
  });

  it('accepted writings stay accepted', () => {
    expect(readEmail('josé@bücher.example', intl)).toEqual({ address: 'josé@xn--bcher-kva.example' });
    expect(readEmail('ada@MÜNCHEN.de', intl)).toEqual({ address: 'ada@xn--mnchen-3ya.de' });
    expect(readEmail('ada@παράδειγμα.ελ', intl).address).toBe('ada@xn--hxajbheg2az3al.xn--qxam');
  });
});

// Where the address
// rules' edges are, and which international addresses pass UTS #39 or not.

describe('the lengths of RFC 5321', () => {
  const label = (n: number) => 'b'.repeat(n);

  it('takes 254 characters and a local part of 64, refuses one more of either', () => {
    const domain = `${label(63)}.${label(63)}.${label(61)}.com`; // 193 characters
    const at254 = `${'a'.repeat(60)}@${domain}`;
    expect(at254).toHaveLength(254);
    expect(readEmail(at254)).toEqual({ address: at254 });
    expect(readEmail(`a${at254}`)).toEqual({ problem: 'format' });
    const local64 = `${'a'.repeat(64)}@example.com`;
    expect(readEmail(local64)).toEqual({ address: local64 });
  });

  it('takes an international domain of 253 characters once in punycode', () => {
    const domain = `${label(63)}.${label(63)}.${label(63)}.ü${'c'.repeat(53)}`;
    const address = readEmail(`a@${domain}`, intl).address;
    expect(address?.length).toBe(2 + 253);
  });
});

describe('the parts of an address', () => {
  it('needs exactly one @ with something before it', () => {
    expect(readEmail('ada.example.com')).toEqual({ problem: 'format' });
    expect(readEmail('')).toEqual({ problem: 'format' });
    expect(readEmail('a@example.com')).toEqual({ address: 'a@example.com' });
    expect(readEmail('ada@x.example')).toEqual({ address: 'ada@x.example' });
  });

  it('refuses a top-level label that cannot exist (digits, a hyphen, one letter), not digits lower down', () => {
    for (const domain of ['example.123', 'example.a1', 'example.1a', 'bad.tld-2', 'example.c']) {
      expect(readEmail(`ada@${domain}`), domain).toEqual({ problem: 'format' });
      expect(readEmail(`ada@${domain}`, intl), domain).toEqual({ problem: 'format' });
    }
    expect(readEmail('ada@mail.123.example')).toEqual({ address: 'ada@mail.123.example' });
    expect(readEmail('ada@example.co')).toEqual({ address: 'ada@example.co' });
    expect(readEmail('ada@example.museum')).toEqual({ address: 'ada@example.museum' });
  });
});

describe('international domains, by UTS #46 with every check on', () => {
  it('refuses a right-to-left label that starts with a digit (the bidi rule)', () => {
    expect(readEmail('ada@1אב.example', intl)).toEqual({ problem: 'format' });
  });

  it('refuses hyphens in the third and fourth places', () => {
    expect(readEmail('ada@ab--cd.example', intl)).toEqual({ problem: 'format' });
  });

  it('keeps ß (nontransitional): straße is not strasse', () => {
    expect(readEmail('ada@straße.example', intl)).toEqual({ address: 'ada@xn--strae-oqa.example' });
  });
});

describe('UTS #39, one part at a time', () => {
  it('refuses digits of two decimal systems in one part', () => {
    expect(readEmail('محمد3٣@example.com', intl)).toEqual({ problem: 'lookalike' });
    expect(readEmail('محمد٣۳@example.com', intl)).toEqual({ problem: 'lookalike' });
  });

  it('takes several digits of one system, ASCII ones among letters of another script', () => {
    expect(readEmail('josé34@example.com', intl)).toEqual({ address: 'josé34@example.com' });
    expect(readEmail('josé30@example.com', intl)).toEqual({ address: 'josé30@example.com' });
    expect(readEmail('josé1289@example.com', intl)).toEqual({ address: 'josé1289@example.com' });
    expect(readEmail('محمد٣٠@example.com', intl)).toEqual({ address: 'محمد٣٠@example.com' });
  });

  it('tells two decimal systems side by side apart (Myanmar Pao, then Eastern Pwo Karen digits)', () => {
    expect(readEmail('က𑛐𑛑@example.com', intl)).toEqual({ address: 'က𑛐𑛑@example.com' });
    expect(readEmail('က𑛚𑛛@example.com', intl)).toEqual({ address: 'က𑛚𑛛@example.com' });
    expect(readEmail('က𑛛𑛣@example.com', intl)).toEqual({ address: 'က𑛛𑛣@example.com' });
    expect(readEmail('က𑛐𑛚@example.com', intl)).toEqual({ problem: 'lookalike' });
    expect(readEmail('က𑛙𑛚@example.com', intl)).toEqual({ problem: 'lookalike' });
  });

  it('refuses a Latin look-alike of one ASCII letter even where the whole part is not ASCII to the eye', () => {
    expect(readEmail('jɑsé@example.com', intl)).toEqual({ problem: 'lookalike' });
  });

  it('refuses a mark or a digit of another script among Latin letters', () => {
    expect(readEmail('abि@example.com', intl)).toEqual({ problem: 'lookalike' });
    expect(readEmail('josé١@example.com', intl)).toEqual({ problem: 'lookalike' });
  });

  it('takes a character of several scripts when one of them is the part’s', () => {
    expect(readEmail('٣محمد@example.com', intl)).toEqual({ address: '٣محمد@example.com' });
  });

  it('takes Latin with Hangul, and Latin with Bopomofo (one writing system each)', () => {
    expect(readEmail('한글abc@example.com', intl)).toEqual({ address: '한글abc@example.com' });
    expect(readEmail('ㄅㄆabc@example.com', intl)).toEqual({ address: 'ㄅㄆabc@example.com' });
    expect(readEmail('한글漢字abc@example.com', intl)).toEqual({ address: '한글漢字abc@example.com' });
    expect(readEmail('ㄅㄆ漢字abc@example.com', intl)).toEqual({ address: 'ㄅㄆ漢字abc@example.com' });
  });

  it('takes a mark of two scripts where one of them is in the writing system’s mix', () => {
    // U+0305 is Latin and Katakana; Bopomofo goes with Latin and Han, not Katakana.
    expect(readEmail('ㄅab\u0305@example.com', intl)).toEqual({ address: 'ㄅab\u0305@example.com' });
  });

  it('takes a part whose letters belong to no script in particular', () => {
    expect(readEmail('ˀ@example.com', intl)).toEqual({ address: 'ˀ@example.com' });
  });
});
