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

  it('refuses bad options, naming each', () => {
    expect(() => botCheck({ provider: 'captcha' as never, secret: 's', siteKey: 'k' })).toThrow(/provider/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: '', siteKey: 'k' })).toThrow(/secret/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', siteKey: 'k"><script>' })).toThrow(/siteKey/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', siteKey: 'k', timeoutMs: 10 })).toThrow(/timeoutMs/);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', sitekey: 'k' } as never)).toThrow(TypeError);
    expect(() => botCheck({ provider: 'hcaptcha', secret: 's', sitekey: 'k' } as never)).toThrow(/sitekey/);
  });
});
