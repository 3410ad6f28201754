import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botCheck } from '../../src/index.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { startFakeSiteverify } from '../helpers/fakeSiteverify.js';

// A bot check before the send: verified with the app's secret against the provider's
// siteverify (here a local stand-in), before any limit is spent or any message is sent.

const SECRET = 'bot-check-secret-value';
const shared = useSharedEmulator();
let provider: Awaited<ReturnType<typeof startFakeSiteverify>>;
beforeAll(async () => {
  provider = await startFakeSiteverify();
});
afterAll(() => provider?.close());

const check = (extra: Partial<Parameters<typeof botCheck>[0]> = {}) =>
  botCheck({ provider: 'turnstile', secret: SECRET, siteKey: '0x4AAAAAAAtest', verifyUrl: provider.url, ...extra });

describe('botCheck: the send', () => {
  it('sends once the token proves a person, giving the provider the secret and the client IP', async () => {
    const h = await shared.harness({ strategy: { botCheck: check() } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'person@example.com', 'cf-turnstile-response': 'person' });
    expect(res.status).toBe(200);
    expect(provider.calls.at(-1)).toEqual({ secret: SECRET, response: 'person', remoteip: '127.0.0.1' });
  });

  it('refuses a failed or missing token with 403 BOT_CHECK_FAILED, before any message or limit is spent', async () => {
    const h = await shared.harness({
      strategy: { botCheck: check(), limits: { perIp: { limit: 1, windowSeconds: 900 } } },
    });
    const before = h.emulator.outbox().length;
    for (const token of ['robot', undefined, '']) {
      const res = await h
        .browser()
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .send({ email: 'bot@example.com', ...(token === undefined ? {} : { 'cf-turnstile-response': token }) });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: { code: 'BOT_CHECK_FAILED' } });
    }
    expect(h.emulator.outbox().length).toBe(before);
    // The one send the IP limit allows is still there: the refusals spent none of it.
    const person = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'bot@example.com', 'cf-turnstile-response': 'person' });
    expect(person.status).toBe(200);
  });

  it('fails closed when the provider cannot tell: 503 BOT_CHECK_UNAVAILABLE, no secret in the answer', async () => {
    const h = await shared.harness({ strategy: { botCheck: check() } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'down@example.com', 'cf-turnstile-response': 'provider-error' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: { code: 'BOT_CHECK_UNAVAILABLE' } });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });

  it('takes reCAPTCHA v3 scores below minScore as no person', async () => {
    const h = await shared.harness({ strategy: { botCheck: check({ provider: 'recaptcha', minScore: 0.5 }) } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'score@example.com', 'g-recaptcha-response': 'score-0.3' });
    expect(res.status).toBe(403);
  });

  it("reads hCaptcha's score as its provider documents it, a risk score: a risky client is refused, a careful person sent", async () => {
    const h = await shared.harness({ strategy: { botCheck: check({ provider: 'hcaptcha' }) } });
    const send = (token: string) =>
      h
        .browser()
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .send({ email: 'hscore@example.com', 'h-captcha-response': token });
    const risky = await send('score-0.9');
    expect(risky.status).toBe(403);
    expect(risky.body).toMatchObject({ error: { code: 'BOT_CHECK_FAILED' } });
    expect((await send('score-0.1')).status).toBe(200);
  });

  it('refuses bad options, naming each', () => {
    expect(() => botCheck({ provider: 'captcha' as never, secret: 's', siteKey: 'k' })).toThrow(/provider/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: '', siteKey: 'k' })).toThrow(/secret/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', siteKey: 'k"><script>' })).toThrow(/siteKey/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', siteKey: 'k', timeoutMs: 10 })).toThrow(/timeoutMs/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', sitekey: 'k' } as never)).toThrow(TypeError);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', sitekey: 'k' } as never)).toThrow(/sitekey/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', siteKey: 'k', maxRiskScore: 2 })).toThrow(
      /maxRiskScore/,
    );
  });
});

describe("botCheck: each provider's siteverify answer read as the provider documents it", () => {
  const verify = (extra: Partial<Parameters<typeof botCheck>[0]>, token: string) =>
    check(extra).verify(token, '203.0.113.5');

  it('reCAPTCHA v3: score 0..1, higher is more likely a person; at least minScore passes; no score (v2) passes', async () => {
    const recaptcha = { provider: 'recaptcha' } as const;
    expect(await verify(recaptcha, 'score-0.9')).toBe(true);
    expect(await verify(recaptcha, 'score-0.5')).toBe(true);
    expect(await verify(recaptcha, 'score-0.3')).toBe(false);
    expect(await verify({ ...recaptcha, minScore: 0.2 }, 'score-0.3')).toBe(true);
    expect(await verify(recaptcha, 'person')).toBe(true);
    expect(await verify(recaptcha, 'score-1.5')).toBe(false);
    expect(await verify(recaptcha, 'score-NaN')).toBe(false);
  });

  it('hCaptcha: score 0..1 is a risk score (Enterprise), higher is riskier; at most maxRiskScore passes; no score passes', async () => {
    const hcaptcha = { provider: 'hcaptcha' } as const;
    expect(await verify(hcaptcha, 'score-0.1')).toBe(true);
    expect(await verify(hcaptcha, 'score-0.5')).toBe(true);
    expect(await verify(hcaptcha, 'score-0.9')).toBe(false);
    expect(await verify({ ...hcaptcha, maxRiskScore: 0.2 }, 'score-0.3')).toBe(false);
    expect(await verify({ ...hcaptcha, maxRiskScore: 0.95 }, 'score-0.9')).toBe(true);
    // minScore is reCAPTCHA's: it changes nothing here.
    expect(await verify({ ...hcaptcha, minScore: 0.99 }, 'score-0.1')).toBe(true);
    expect(await verify(hcaptcha, 'person')).toBe(true);
    expect(await verify(hcaptcha, 'score-NaN')).toBe(false);
  });

  it('Turnstile: no score at all; success alone decides, whatever else the answer holds', async () => {
    const turnstile = { provider: 'turnstile' } as const;
    expect(await verify(turnstile, 'person')).toBe(true);
    expect(await verify(turnstile, 'score-0.1')).toBe(true);
    expect(await verify(turnstile, 'score-0.9')).toBe(true);
    expect(await verify(turnstile, 'robot')).toBe(false);
  });
});
