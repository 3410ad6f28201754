// Finding 1: a frontend token logs in once, across instances, only while its authentication is
// recent by the service's own time, and its signals carry that time, never a later one.
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryFlowStore, type MagicLinkProfile } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { loginVia, type Harness, type HarnessOptions } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

const pool = harnessPool();
const app = (options: HarnessOptions = {}) => pool.app(options);
let emulator: Emulator;
beforeAll(async () => {
  emulator = await pool.emulator();
});
const postToken = (h: Harness, token: string) =>
  h
    .browser()
    .post('/auth/callback')
    .set('origin', h.baseUrl)
    .set('accept', 'application/json')
    .type('form')
    .send({ token });

describe('frontend tokens', () => {
  it('log in once: the same token again, even on another instance, is refused', async () => {
    const flowStore = new MemoryFlowStore();
    const a = await app({ strategy: { flowStore } });
    const b = await app({ strategy: { flowStore } });
    const token = emulator.issueToken({ email: 'once@example.com' });
    expect((await postToken(a, token)).status).toBe(302);
    expect((await postToken(b, token)).status).toBe(401);
    expect((await postToken(a, token)).status).toBe(401);
  });

  it("a magic-link login's own token, POSTed from another browser, is refused", async () => {
    let seen: MagicLinkProfile | undefined;
    const h = await app({
      verify: async (profile) => {
        seen = profile;
        return { id: profile.id };
      },
    });
    expect((await loginVia(h, h.browser(), { email: 'linked@example.com' })).status).toBe(302);
    const token = seen!._json.verification!.userDetails.token;
    const other = h.browser();
    const res = await other.post('/auth/callback').set('origin', h.baseUrl).type('form').send({ token });
    expect(res.status).toBe(401);
    expect((await other.get('/me')).status).toBe(401);
  });

  it('a token authenticated longer ago than maxAuthAgeMs is 401, judged on the service time', async () => {
    const h = await app({ strategy: { maxAuthAgeMs: 120_000 } });
    const token = emulator.issueToken({ email: 'old@example.com' });
    const realNow = Date.now;
    Date.now = () => realNow() + 24 * 3_600_000;
    try {
      const res = await postToken(h, token);
      expect(res.status).toBe(401);
    } finally {
      Date.now = realNow;
    }
    // Within the window it works (and is then spent).
    expect((await postToken(h, emulator.issueToken({ email: 'fresh@example.com' }))).status).toBe(302);
  });

  it("stamps the signals with the service's authentication time, never a later one", async () => {
    const h = await app({ session: 'express' });
    const issuedAround = Date.now();
    const token = emulator.issueToken({ email: 'stamp@example.com' });
    const realNow = Date.now;
    Date.now = () => realNow() + 100_000; // the token is POSTed 100 s after it was issued
    try {
      const browser = h.browser();
      expect((await browser.post('/auth/callback').set('origin', h.baseUrl).type('form').send({ token })).status).toBe(
        302,
      );
      const me = await browser.get('/me');
      expect(me.body.record.risk.at).toBeLessThan(issuedAround + 10_000);
    } finally {
      Date.now = realNow;
    }
  });

  it('checks maxAuthAgeMs', async () => {
    await expect(app({ strategy: { maxAuthAgeMs: 10 } })).rejects.toThrow(
      'MagicLinkStrategy: options.maxAuthAgeMs must be a whole number from 1000 to 86400000',
    );
  });
});
