// Mutation survivors 6 and 15 (docs/testing.md): the app's verify function in the styles apps
// write it (a callback called after a database lookup, a bare rejection), and which identities
// of a verify-code answer count as verified when the service does not say.
import { describe, expect, it } from 'vitest';
import type { MagicLinkProfile, VerifyFunction } from '../../src/index.js';
import { clickLink, lastLinkTo, loginVia, type Harness } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

const pool = harnessPool();

describe('the app’s verify function', () => {
  it('a done() called later, after an awaited lookup, logs the user in', async () => {
    const verify = ((profile: MagicLinkProfile, done: (err: unknown, user?: unknown) => void) => {
      // As a database callback would: some turns later, with nothing returned.
      setImmediate(() => setImmediate(() => done(null, { id: profile.id, from: 'database' })));
    }) as unknown as VerifyFunction;
    const h = await pool.app({ verify });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'later@example.com' })).status).toBe(302);
    const me = await browser.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual({ id: 'later@example.com', from: 'database' });
  });

  it('a done() called from a timer whose handle the arrow returns (not a promise) logs the user in', async () => {
    const verify = ((profile: MagicLinkProfile, done: (err: unknown, user?: unknown) => void) =>
      setTimeout(() => done(null, { id: profile.id, from: 'timer' }), 1)) as unknown as VerifyFunction;
    const h = await pool.app({ verify });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'timer@example.com' })).status).toBe(302);
    expect((await browser.get('/me')).body.user).toEqual({ id: 'timer@example.com', from: 'timer' });
  });

  it('a bare Promise.reject() is an error for the app, never a login', async () => {
    const verify = (() => Promise.reject()) as unknown as VerifyFunction;
    const h = await pool.app({ verify });
    const browser = h.browser();
    const res = await loginVia(h, browser, { email: 'bare-reject@example.com' });
    expect(res.status).toBe(500);
    expect(res.body.error.message).toBe('verify rejected without a reason');
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('a promise that resolves and a done() called too: one login, the first answer', async () => {
    const verify = (async (profile: MagicLinkProfile, done: (err: unknown, user?: unknown) => void) => {
      done(null, { id: profile.id, by: 'done' });
      return { id: profile.id, by: 'promise' };
    }) as unknown as VerifyFunction;
    const h = await pool.app({ verify });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'both@example.com' })).status).toBe(302);
    expect((await browser.get('/me')).body.user).toEqual({ id: 'both@example.com', by: 'done' });
  });
});

describe('an identity the service does not mark counts as verified only when the link was sent to it', () => {
  /** A login whose verify-code answer has its identities replaced by `identities`. */
  async function loginWithIdentities(h: Harness, email: string, identities: (sent: string) => object[]) {
    let answer: Record<string, unknown> | undefined;
    const probe = await pool.app({
      verify: async (profile) => {
        answer = profile._json.verification as unknown as Record<string, unknown>;
        return { id: profile.id };
      },
    });
    // The real answer's shape, from a login of its own.
    expect((await loginVia(probe, probe.browser(), { email: `probe-${email}` })).status).toBe(302);
    const browser = h.browser();
    expect((await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email })).status).toBe(200);
    const entry = h.emulator.outbox().at(-1)!;
    const callback = await clickLink(lastLinkTo(h.emulator, email));
    const details = answer!.userDetails as Record<string, unknown>;
    h.emulator.fault({
      path: '/auth/v1/verify/code',
      status: 200,
      times: 1,
      body: { ...answer, requestId: entry.requestId, userDetails: { ...details, identities: identities(email) } },
    });
    return { browser, res: await browser.get(callback) };
  }

  const unmarked = (value: string) => ({ identityType: 'EMAIL', identityValue: value, channel: 'MAGIC_LINK' });

  it('the address the link went to (in any case): logged in, with it verified', async () => {
    const h = await pool.app();
    const { browser, res } = await loginWithIdentities(h, 'sent-to@example.com', (sent) => [
      unmarked(sent.toUpperCase()),
    ]);
    expect(res.status).toBe(302);
    const me = await browser.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.record.verified).toEqual(['EMAIL']);
  });

  it('another address: refused, NO_VERIFIED_IDENTITY (401), nobody logged in', async () => {
    const h = await pool.app();
    const { browser, res } = await loginWithIdentities(h, 'asked@example.com', () => [
      unmarked('someone-else@example.com'),
    ]);
    expect(res.status).toBe(401);
    expect((await browser.get('/me')).status).toBe(401);
  });
});
