// Send limits under attack, over real HTTP (real Express, cookie-session, Passport, the emulator
// on its own sockets): the per-IP budget counts every try, refused by the service or not, and
// the memory store is bounded, giving up its least telling counts at its bound (no lock-out).
import { describe, expect, it } from 'vitest';
import { SendLimiter } from '../../src/index.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness } = useSharedEmulator();
const json = { accept: 'application/json' };

describe('the per-IP budget counts attempts', () => {
  it.each([
    ['503', 503, { message: 'Service Unavailable' }],
    ['429 7020', 429, { message: 'Rate Limit Exceeded', errorCode: '7020', description: 'Too many requests' }],
    ['400 7104', 400, { message: 'Invalid Request', errorCode: '7104', description: 'Request error: Invalid email' }],
  ] as const)('while the service refuses every send (%s), one IP still reaches 429', async (_name, status, body) => {
    const h = await harness({
      strategy: {
        limits: { perIp: { limit: 5, windowSeconds: 900 }, perDestination: { limit: 2, windowSeconds: 60 } },
      },
    });
    h.emulator.fault({ path: '/auth/v1/authorize', status, body, times: Infinity });
    const browser = h.browser();
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await browser
        .post('/auth/magic-link')
        .set(json)
        .send({ email: `try${i}@attack.example` });
      answers.push(res.status);
      if (res.status === 429) {
        expect(res.body.error).toMatchObject({ code: 'RATE_LIMITED' });
        expect(res.body.error.message).toMatch(/^Too many sign-in links were asked for from this network\./);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(800);
      }
    }
    expect(answers.slice(0, 5).every((s) => s !== 429 && s >= 400)).toBe(true);
    expect(answers.slice(5)).toEqual([429, 429, 429]);
  });
});

describe('the memory store is bounded', () => {
  it('at its bound a new visitor still gets a link, and the flooding address stays refused', async () => {
    const limiter = new SendLimiter({
      maxCounts: 1_000,
      perIp: { limit: 20, windowSeconds: 900 },
      perDestination: { limit: 5, windowSeconds: 600 },
    });
    // The flooder spends its address, then 600 other addresses send to distinct destinations:
    // three counts each, nearly twice the table.
    for (let i = 0; i < 20; i++) await limiter.take('203.0.113.99', [`mine${i}@attack.example`]);
    let taken = 0;
    for (let i = 0; i < 600; i++) {
      if ((await limiter.take(`10.0.${i >> 8}.${i & 255}`, [`flood${i}@attack.example`])).allowed) taken += 1;
    }
    expect(taken).toBe(600);
    expect((await limiter.take('203.0.113.99', ['again@attack.example'])).allowed).toBe(false);
    const h = await harness({ strategy: { limits: limiter } });
    const fresh = await h.browser().post('/auth/magic-link').set(json).send({ email: 'new@attack.example' });
    expect(fresh.status).toBe(200);
    expect(h.emulator.outbox().filter((m) => m.to === 'new@attack.example')).toHaveLength(1);
  });

  it('the bound is an option of 1,000 to 10,000,000 counts', () => {
    expect(() => new SendLimiter({ maxCounts: 999 })).toThrow(
      'SendLimiter: options.maxCounts must be a whole number from 1000 to 10000000',
    );
    expect(() => new SendLimiter({ maxCounts: 1_000 })).not.toThrow();
  });
});
