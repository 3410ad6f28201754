// Mutation survivors of src/contact/email.ts and src/contact/confusable.ts: where the address
// rules' edges are, and which international addresses pass UTS #39 or not.
import { describe, expect, it } from 'vitest';
import { readEmail } from '../../src/contact/email.js';

const intl = { international: true };

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
