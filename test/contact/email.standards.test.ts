// International addresses by the standards: the domain through IDNA2008 as UTS #46 processes it
// (tr46, every check on), the local part and each label through UTS #39. The inputs sit on both
// sides of `allowInternationalEmail`'s edge: look-alikes it refuses, Japanese addresses it takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmail } from '../../src/contact/email.js';
import { skeleton } from '../../src/contact/confusable.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const intl = { international: true };

describe('allowInternationalEmail: what it exists to stop', () => {
  it.each([
    // A URL parser cuts the host at `? / #` and decodes `%`: the link would go elsewhere.
    ['ada@evil.example?good.example', 'format'],
    ['test@example.com/path', 'format'],
    ['ada@%65xample.com', 'format'],
    ['ada@example.com#good.example', 'format'],
    // IDNA2008 disallows symbols UTS #46 keeps for IDNA2003's sake.
    ['ada@I♥NY.de', 'format'],
    ['ada@😀.example', 'format'],
    // Latin look-alikes of ASCII letters.
    ['adɑm@example.com', 'lookalike'],
    ['ada@exımple.com', 'lookalike'],
    // Another script's digits among Latin letters.
    ['ad١m@example.com', 'lookalike'],
    ['ad1١@example.com', 'lookalike'],
    // Whole-script homographs: Cyrillic that reads as `apple` and `paypal`.
    ['support@аррӏе.com', 'lookalike'],
    ['раураӏ@gmail.com', 'lookalike'],
    // Latin mixed with Cyrillic or Greek in one part.
    ['ada@pаypal.com', 'lookalike'],
    ['ivan.иван@example.com', 'lookalike'],
    ['ada@micrοsoft.com', 'lookalike'],
  ] as const)('refuses %j (%s)', (input, problem) => {
    expect(readEmail(input, intl)).toEqual({ problem });
    // ASCII mode refused them all before, and still does.
    expect(readEmail(input).address).toBeUndefined();
  });

  it.each([
    ['メール@example.jp', 'メール@example.jp'],
    ['ada@example.セール', 'ada@example.xn--1ck2e1b'],
    ['メール@例え.セール', 'メール@xn--r8jz45g.xn--1ck2e1b'],
    ['ひらがなカタカナ漢字abc@example.jp', 'ひらがなカタカナ漢字abc@example.jp'],
    ['josé@bücher.example', 'josé@xn--bcher-kva.example'],
    ['søren.blåbær@example.dk', 'søren.blåbær@example.dk'],
    ['иван@пример.рф', 'иван@xn--e1afmkfd.xn--p1ai'],
    ['χρήστης@παράδειγμα.ελ', 'χρήστης@xn--hxajbheg2az3al.xn--qxam'],
    ['محمد٣@example.com', 'محمد٣@example.com'],
  ])('accepts %j as %j', (input, address) => {
    expect(readEmail(input, intl)).toEqual({ address });
  });

  it('the skeleton is UTS #39’s: the homographs read as the ASCII they imitate', () => {
    // Unicode 16 made palochka `ӏ` the look-alike of `l` (it was `i`).
    expect(skeleton('аррӏе')).toBe('apple');
    expect(skeleton('раураӏ')).toBe('paypal');
    expect(skeleton('ƒ')).toBe('f');
    expect(skeleton('josé')).not.toMatch(/^[a-z]+$/);
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

  it('refuses the tricks with 400 and sends nothing; a Japanese address gets its link', async () => {
    for (const email of ['ada@evil.example?good.example', 'support@аррӏе.com', 'adɑm@example.com']) {
      const res = await h.browser().post('/auth/magic-link').set('accept', 'application/json').send({ email });
      expect(res.status).toBe(400);
      expect(res.body.error.field).toBe('email');
    }
    expect(h.emulator.outbox()).toHaveLength(0);
    const ok = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'メール@example.jp' });
    expect(ok.status).toBe(200);
    expect(h.emulator.outbox().map((e) => e.to)).toEqual(['メール@example.jp']);
  });
});
