// International domains judged as the domain the link goes to, by the browser's rules
// (src/contact/idnSpoof.ts, Chromium's IDN spoof checker written anew): one verdict for every
// spelling of a domain, look-alikes refused, real names sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toASCII } from 'tr46';
import { readEmail } from '../../src/contact/email.js';
import { domainShownAsWritten, labelShownAsWritten, similarTopDomain } from '../../src/contact/idnSpoof.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const intl = { international: true };

const FULL_WIDTH_OFFSET = 0xff01 - 0x21;
/** ASCII letters, digits and dots as their full-width forms (`ａ`, `１`, `．`). */
const fullWidth = (domain: string) =>
  domain.replace(/[a-zA-Z0-9.]/g, (c) => String.fromCharCode(c.charCodeAt(0) + FULL_WIDTH_OFFSET));

/** The ways one domain gets typed: as is, in capitals, as A-labels, full-width, decomposed, mixed. */
function spellings(domain: string): Array<[string, string]> {
  const aLabels = toASCII(domain, { useSTD3ASCIIRules: true, transitionalProcessing: false });
  if (!aLabels) throw new Error(`${domain} has no A-label form`);
  const out: Array<[string, string]> = [
    ['as written', domain],
    ['A-labels', aLabels],
    ['A-labels in capitals', aLabels.toUpperCase()],
    ['full-width', fullWidth(domain)],
    ['NFD', domain.normalize('NFD')],
  ];
  // Capitals are the same domain unless a letter's capital is another letter's (ß is SS, ı is I).
  if (domain.toUpperCase().toLowerCase() === domain) {
    out.push(['capitals', domain.toUpperCase()]);
    out.push(['full-width capitals, NFD', fullWidth(domain.toUpperCase()).normalize('NFD')]);
  }
  return out;
}

describe('one verdict for every spelling of a domain', () => {
  // Look-alikes: each reads as another domain, by the rule named.
  const LOOKALIKES: Array<[string, string]> = [
    ['аррӏе.com', 'Cyrillic letters that are all Latin look-alikes (apple), under an ASCII TLD'],
    ['раураӏ.com', 'the same (paypal)'],
    ['рег.com', 'Cyrillic that reads per, under .com'],
    ['орг.example', 'a Cyrillic TLD name lower down'],
    ['pаypal.com', 'Latin and Cyrillic in one label'],
    ['ƒacebook.com', '`ƒ`, the look-alike of `f` since Unicode 11'],
    ['ƒoo.de', '`ƒ` in a name no one owns'],
    ['exʒmple.com', '`ʒ`, whose capital `Ʒ` is `3`'],
    ['exımple.com', 'dotless `ı`'],
    ['ɡoogle.com', 'script `ɡ`'],
    ['gõõgle.com', 'google.com with diacritics (a top domain)'],
    ['ámazon.de', 'amazon.de with a diacritic (a top domain)'],
    ['уа.ru', 'Cyrillic ya.ru (a top domain)'],
    ['ebαy.com', 'Greek `α` among Latin letters'],
    ['зз.com', 'digit look-alikes only (33)'],
    ['abcノdef.com', 'Katakana `ノ` (a slash) between Latin letters'],
    ['ab一cd.com', 'CJK `一` (a dash) beside Latin letters'],
    ['þorn.com', '`þ` outside .is and .fo'],
    ['ləman.com', '`ə` outside .az'],
  ];
  it.each(LOOKALIKES)('%s is refused in every spelling (%s)', (domain) => {
    for (const [how, spelling] of spellings(domain)) {
      expect(readEmail(`ada@${spelling}`, intl), `${how}: ${spelling}`).toEqual({ problem: 'lookalike' });
    }
  });

  // Real names, each sent to its one A-label form however it was typed.
  const REAL: Array<[string, string]> = [
    ['рег.рф', 'xn--c1ad6a.xn--p1ai'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['рег.ru', 'xn--c1ad6a.ru'],
    ['пример.орг', 'xn--e1afmkfd.xn--c1avg'],
    ['москва.com', 'xn--80adxhks.com'],
    ['секс.com', 'xn--e1aktc.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['bücher.google.com', 'xn--bcher-kva.google.com'],
    ['straße.de', 'xn--strae-oqa.de'],
    ['þorn.is', 'xn--orn-ooa.is'],
    ['ləman.az', 'xn--lman-v6b.az'],
    ['παράδειγμα.ελ', 'xn--hxajbheg2az3al.xn--qxam'],
    ['例え.jp', 'xn--r8jz45g.jp'],
    ['ドメイン名例.jp', 'xn--eckwd4c7cu47r2wf.jp'],
    ['col·legi.cat', 'xn--collegi-xma.cat'],
    ['ドメイン・名.jp', 'xn--eckwd4c7cvb9552b.jp'],
  ];
  it.each(REAL)('%s is sent as %s in every spelling', (domain, aLabels) => {
    for (const [how, spelling] of spellings(domain)) {
      expect(readEmail(`ada@${spelling}`, intl), `${how}: ${spelling}`).toEqual({ address: `ada@${aLabels}` });
    }
  });

  it('the issue’s three spellings of one look-alike get one verdict', () => {
    for (const address of ['adam@exƷmple.com', 'adam@exʒmple.com', 'adam@xn--exmple-cbd.com'])
      expect(readEmail(address, intl), address).toEqual({ problem: 'lookalike' });
  });

  it('takes IDNA2008 punctuation only where its context rule holds (RFC 5892 appendix A)', () => {
    for (const domain of ['co·legi.cat', 'ab·.cat', 'ab・cd.jp', '・.jp', '׳שלום.il'])
      expect(readEmail(`ada@${domain}`, intl), domain).toEqual({ problem: 'format' });
    expect(readEmail('ada@col·legi.com', intl)).toEqual({ problem: 'lookalike' }); // Chromium: .cat only
    expect(readEmail('ada@שלום׳.il', intl)).toEqual({ address: 'ada@xn--9dbne9bzc.il' });
  });

  it('a real Cyrillic name under a Cyrillic TLD is sent: ivan@рег.рф', () => {
    expect(readEmail('ivan@рег.рф', intl)).toEqual({ address: 'ivan@xn--c1ad6a.xn--p1ai' });
    expect(readEmail('ivan@РЕГ.РФ', intl)).toEqual({ address: 'ivan@xn--c1ad6a.xn--p1ai' });
  });

  it('`ƒ` is refused in the local part too', () => {
    expect(readEmail('ƒred@example.com', intl)).toEqual({ problem: 'lookalike' });
  });

  it('ASCII mode stays as it was: every non-ASCII spelling refused, A-labels as international', () => {
    expect(readEmail('ada@рег.рф')).toEqual({ problem: 'international' });
    expect(readEmail('ada@xn--c1ad6a.xn--p1ai')).toEqual({ problem: 'international' });
    expect(readEmail('ada@ｅxample.com')).toEqual({ problem: 'lookalike' });
    expect(readEmail('ada@example.com')).toEqual({ address: 'ada@example.com' });
  });
});

describe("Chromium's label rules", () => {
  it('takes a middle dot only between two l in .cat', () => {
    expect(labelShownAsWritten('col·legi', 'cat', 'cat')).toBe(true);
    expect(labelShownAsWritten('col·legi', 'com', 'com')).toBe(false);
    expect(labelShownAsWritten('co·legi', 'cat', 'cat')).toBe(false);
    expect(labelShownAsWritten('·l', 'cat', 'cat')).toBe(false);
  });

  it('takes a whole-script look-alike under its script’s TLD or a country of the script', () => {
    expect(labelShownAsWritten('сосо', 'xn--p1ai', 'рф')).toBe(true);
    expect(labelShownAsWritten('сосо', 'ua', 'ua')).toBe(true);
    expect(labelShownAsWritten('сосо', 'com', 'com')).toBe(false);
    expect(labelShownAsWritten('οκ', 'gr', 'gr')).toBe(true);
    expect(labelShownAsWritten('οκ', 'com', 'com')).toBe(false);
  });

  it('refuses characters outside the allowed set, and those Chromium takes out of it', () => {
    expect(labelShownAsWritten('ĸa', 'com', 'com')).toBe(false); // Latin kra
    expect(labelShownAsWritten('ḁb', 'com', 'com')).toBe(false); // Latin Extended Additional
    expect(labelShownAsWritten('ꭰb', 'com', 'com')).toBe(false); // Cherokee
  });

  it('refuses a label of digits and digit look-alikes, in one script or mixed', () => {
    expect(labelShownAsWritten('з1', 'ru', 'ru')).toBe(false);
    expect(labelShownAsWritten('२', 'in', 'in')).toBe(false);
    expect(labelShownAsWritten('зима', 'ru', 'ru')).toBe(true);
  });

  it('refuses a nonspacing mark repeated on one letter', () => {
    expect(labelShownAsWritten('e\u0301\u0301x', 'com', 'com')).toBe(false);
  });

  it('compares a domain with the top domains by skeleton, not for the domain itself or under it', () => {
    expect(similarTopDomain('gõõgle.com')).toBe('google.com');
    expect(similarTopDomain('yаhoo.com')).toBe('yahoo.com');
    expect(similarTopDomain('bücher.google.com')).toBeUndefined();
    expect(similarTopDomain('bücher.de')).toBeUndefined();
    expect(domainShownAsWritten(['gõõgle', 'com'], 'com')).toBe(false);
    expect(domainShownAsWritten(['bücher', 'de'], 'de')).toBe(true);
  });
});

describe('through send() over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ strategy: { allowInternationalEmail: true } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses a look-alike with 400 in the person’s language; sends ivan@рег.рф its link', async () => {
    for (const email of ['ada@ƒacebook.com', 'ada@xn--exmple-cbd.com', 'ada@ＥXƷMPLE.com']) {
      const res = await h
        .browser()
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .set('accept-language', 'es')
        .send({ email });
      expect(res.status, email).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.field).toBe('email');
      expect(res.body.error.message).toMatch(/caracteres que se parecen a otros/);
    }
    expect(h.emulator.outbox()).toHaveLength(0);
    const ok = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'ivan@рег.рф' });
    expect(ok.status).toBe(200);
    expect(h.emulator.outbox().map((e) => e.to)).toEqual(['ivan@xn--c1ad6a.xn--p1ai']);
  });
});
