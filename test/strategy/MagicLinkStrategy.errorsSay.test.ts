// Errors that say what happened, with the field and the fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireLowRisk } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, loginVia, startHarness, type Harness } from '../helpers/harness.js';

let emulator: Emulator;
let h: Harness;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  h = await startHarness({
    emulator,
    routes: (app) => app.get('/payments', requireLowRisk(), (_req, res) => res.json({ ok: true })),
  });
});
afterAll(async () => {
  await h.close();
  await emulator.close();
});

const send = (body: Record<string, string>) =>
  h.browser().post('/auth/magic-link').set('accept', 'application/json').type('form').send(body);

describe('the send route says what is wrong with the entry', () => {
  it('an e-mail address and a number in one field: two contacts, not "invisible characters"', async () => {
    const res = await send({ email: 'ada@example.com +14155550123' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'email' });
    expect(res.body.error.message).toMatch(/more than one contact/);
    expect(res.body.error.message).not.toMatch(/invisible/);
  });

  it('a space inside an address: a space', async () => {
    const res = await send({ email: 'ada lovelace@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/without spaces/);
  });

  it('a real invisible character is still called one, even next to a space', async () => {
    const res = await send({ email: 'ada@exam\u200bple.com x' });
    expect(res.body.error.message).toMatch(/invisible characters/);
  });

  it('a 5,000-character entry is a 400 on its field, never "try again in a moment"', async () => {
    const res = await send({ email: `${'a'.repeat(5000)}@example.com` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'email' });
    expect(res.body.error.message).not.toMatch(/try again/i);
  });

  it('a POST with no body at all: the body is missing, not a cross-site request', async () => {
    const res = await h.browser().post('/auth/magic-link').unset('origin').set('accept', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.message).toMatch(/no body/);
  });

  it('a cross-site POST with a body is still refused as one', async () => {
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('origin', 'https://evil.example')
      .set('accept', 'application/json')
      .type('form')
      .send({ email: 'ada@example.com' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CROSS_SITE');
  });
});

describe('requireLowRisk() on a strategy that fetches no signals', () => {
  it('refuses (fail closed) and tells the operator once why', async () => {
    const warnings: Array<{ code?: string; message: string }> = [];
    const listen = (w: Error & { code?: string }) => {
      if (w.name === 'PassportOtplessWarning') warnings.push({ code: w.code, message: w.message });
    };
    process.on('warning', listen);
    try {
      for (const email of ['nosignals1@example.com', 'nosignals2@example.com']) {
        const browser = h.browser();
        await loginVia(h, browser, { email }, 'clean');
        const res = await browser.get('/payments').set('accept', 'application/json');
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('RISK_BLOCKED');
      }
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', listen);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'OTPLESS_NO_RISK_SIGNALS', message: expect.stringMatching(/enrich/) });
  });
});

describe("the send route's refusals in the person's language", () => {
  it.each([
    ['hi', /^सिर्फ़ एक ईमेल पता लिखें/],
    ['id', /^Masukkan satu alamat email saja/],
    ['es-MX', /^Escribe un solo correo electrónico/],
    ['pt-BR', /^Digite só um e-mail/],
  ])('Accept-Language %s', async (language, message) => {
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .set('accept-language', language)
      .type('form')
      .send({ email: 'ada@example.com +14155550123' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'email',
      message: expect.stringMatching(message),
    });
  });
});
