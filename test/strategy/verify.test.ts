// Only identities the service verified (or the destination this browser's send went
// to) count; a login with none is refused with its own code; profile.id is a verified identity.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MagicLinkProfile, VerifyFunction } from '../../src/index.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { clickLink, CLIENT, type Harness, lastLinkTo, loginVia, startHarness } from '../helpers/harness.js';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

let emulator: Emulator;
let h: Harness;
let seen: MagicLinkProfile | undefined;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  h = await startHarness({
    emulator,
    verify: async (profile) => {
      seen = profile;
      return { id: profile.id };
    },
    routes: (app) =>
      app.get('/custom', (req, res, next) =>
        h.passport.authenticate('magic-link', (err: unknown, user: unknown, info: { code?: string }, status: number) =>
          err ? next(err) : res.status(user ? 200 : status).json({ code: info?.code }),
        )(req, res, next),
      ),
  });
});
afterEach(() => {
  seen = undefined;
});
afterAll(async () => {
  await h.close();
  await emulator.close();
});

describe('only verified identities', () => {
  it('a login whose only identity the service did not verify is refused: NO_VERIFIED_IDENTITY', async () => {
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'unverified@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'unverified@example.com'));
    emulator.nextLogin({ unverified: ['EMAIL'] });
    const res = await browser.get(callback.replace('/auth/callback', '/custom'));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('NO_VERIFIED_IDENTITY');
    expect(seen).toBeUndefined();
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('profile.id is the verified identity, and the service userId a field of its own', async () => {
    expect((await loginVia(h, h.browser(), { email: 'id@example.com' })).status).toBe(302);
    expect(seen?.id).toBe('id@example.com');
    const token = emulator.issueToken({ email: 'id2@example.com' });
    await h.browser().post('/auth/callback').set('origin', h.baseUrl).type('form').send({ token });
    expect(seen?.id).toBe('id2@example.com');
    expect(seen?.userId).toEqual(expect.any(String));
    expect(seen?.userId).not.toBe(seen?.id);
  });

  it('an identity the service marks unverified is left out of the login record the guards read', async () => {
    const browser = h.browser();
    await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'both@example.com', mobile: '+14155550177' });
    const callback = await clickLink(lastLinkTo(emulator, '+14155550177'));
    emulator.nextLogin({ unverified: ['EMAIL'] });
    expect((await browser.get(callback)).status).toBe(302);
    const me = await browser.get('/me');
    expect(me.body.record.verified).toEqual(['MOBILE']);
    expect(seen?.id).toBe('+14155550177');
    expect(seen?.emails.filter((e) => e.verified)).toEqual([]);
  });
});

// An identity the service does not mark verified counts only when the send went to that one
// destination. A send to {attacker's e-mail, victim's mobile} whose verify-code answer lists both
// without `verified` (the real service shares one request id across both channels) must not
// make the victim's number verified, nor its id.

describe('identities the service did not mark verified', () => {
  let emulator: Emulator;
  let h: Harness;
  let seen: MagicLinkProfile | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    h = await startHarness({
      emulator,
      verify: async (profile) => {
        seen = profile;
        return { id: profile.id };
      },
      routes: (app) =>
        app.get('/custom', (req, res, next) =>
          h.passport.authenticate(
            'magic-link',
            (err: unknown, user: unknown, info: { code?: string }, status: number) =>
              err ? next(err) : res.status(user ? 200 : status).json({ code: info?.code, user }),
          )(req, res, next),
        ),
    });
  });
  afterEach(() => {
    seen = undefined;
    emulator.clearFaults();
  });
  afterAll(async () => {
    await h.close();
    await emulator.close();
  });

  /** The service's verify-code answer for the link just clicked, with identities that carry no `verified`. */
  function answerWithoutVerified(to: string, identities: Array<{ type: 'EMAIL' | 'MOBILE'; value: string }>): void {
    const entry = [...emulator.outbox()].reverse().find((e) => e.to === to);
    if (!entry) throw new Error(`no link to ${to}`);
    emulator.fault({
      path: ENDPOINTS.verifyCode.path,
      status: 200,
      body: {
        requestId: entry.requestId,
        message: 'SUCCESS',
        userDetails: {
          token: `token-${entry.requestId}`,
          status: 'SUCCESS',
          completedAt: 1_763_000_000_000,
          identities: identities.map((i) => ({
            identityType: i.type,
            identityValue: i.value,
            channel: 'MAGIC_LINK',
            methods: [i.type === 'EMAIL' ? 'EMAIL' : 'WHATSAPP'],
          })),
        },
      },
    });
  }

  describe('identities only the service vouched for', () => {
    it('a two-destination send: neither identity without `verified` counts, the login is refused', async () => {
      const browser = h.browser();
      const sent = await browser
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .send({ email: 'attacker@example.com', mobile: '+14155550123' });
      expect(sent.status).toBe(200);
      const callback = await clickLink(lastLinkTo(emulator, 'attacker@example.com'));
      answerWithoutVerified('attacker@example.com', [
        { type: 'EMAIL', value: 'attacker@example.com' },
        { type: 'MOBILE', value: '14155550123' },
      ]);
      const res = await browser.get(callback.replace('/auth/callback', '/custom'));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('NO_VERIFIED_IDENTITY');
      expect(seen).toBeUndefined();
      expect((await browser.get('/me')).status).toBe(401);
    });

    it('a one-destination send: that destination counts, another identity in the answer does not', async () => {
      const browser = h.browser();
      const sent = await browser
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .send({ email: 'only@example.com' });
      expect(sent.status).toBe(200);
      const callback = await clickLink(lastLinkTo(emulator, 'only@example.com'));
      answerWithoutVerified('only@example.com', [
        { type: 'MOBILE', value: '14155550124' },
        { type: 'EMAIL', value: 'only@example.com' },
      ]);
      const res = await browser.get(callback.replace('/auth/callback', '/custom'));
      expect(res.status).toBe(200);
      expect(seen?.id).toBe('only@example.com');
      expect(seen?.emails).toEqual([{ value: 'only@example.com', verified: true }]);
      expect(seen?.phoneNumbers).toEqual([{ value: '+14155550124', verified: false }]);
    });

    it('the login record lists only the vouched identity, so requireIdentity() for the other one refuses', async () => {
      const browser = h.browser();
      await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'record@example.com' });
      const callback = await clickLink(lastLinkTo(emulator, 'record@example.com'));
      answerWithoutVerified('record@example.com', [
        { type: 'MOBILE', value: '14155550126' },
        { type: 'EMAIL', value: 'record@example.com' },
      ]);
      expect((await browser.get(callback)).status).toBe(302);
      const me = await browser.get('/me');
      expect(me.body.record.verified).toEqual(['EMAIL']);
    });

    it('a one-destination send whose answer names only another identity: refused', async () => {
      const browser = h.browser();
      await browser.post('/auth/magic-link').set('accept', 'application/json').send({ mobile: '+14155550125' });
      const callback = await clickLink(lastLinkTo(emulator, '+14155550125'));
      answerWithoutVerified('14155550125', [{ type: 'EMAIL', value: 'someone@example.com' }]);
      const res = await browser.get(callback.replace('/auth/callback', '/custom'));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('NO_VERIFIED_IDENTITY');
    });
  });
});

// The app's verify function in the styles apps
// write it (a callback called after a database lookup, a bare rejection), and which identities
// of a verify-code answer count as verified when the service does not say.

const pool = useSharedEmulator();

describe('the app’s verify function', () => {
  it('a done() called later, after an awaited lookup, logs the user in', async () => {
    const verify = ((profile: MagicLinkProfile, done: (err: unknown, user?: unknown) => void) => {
      // As a database callback would: some turns later, with nothing returned.
      setImmediate(() => setImmediate(() => done(null, { id: profile.id, from: 'database' })));
    }) as unknown as VerifyFunction;
    const h = await pool.harness({ verify });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'later@example.com' })).status).toBe(302);
    const me = await browser.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual({ id: 'later@example.com', from: 'database' });
  });

  it('a done() called from a timer whose handle the arrow returns (not a promise) logs the user in', async () => {
    const verify = ((profile: MagicLinkProfile, done: (err: unknown, user?: unknown) => void) =>
      setTimeout(() => done(null, { id: profile.id, from: 'timer' }), 1)) as unknown as VerifyFunction;
    const h = await pool.harness({ verify });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'timer@example.com' })).status).toBe(302);
    expect((await browser.get('/me')).body.user).toEqual({ id: 'timer@example.com', from: 'timer' });
  });

  it('a bare Promise.reject() is an error for the app, never a login', async () => {
    const verify = (() => Promise.reject()) as unknown as VerifyFunction;
    const h = await pool.harness({ verify });
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
    const h = await pool.harness({ verify });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'both@example.com' })).status).toBe(302);
    expect((await browser.get('/me')).body.user).toEqual({ id: 'both@example.com', by: 'done' });
  });
});

describe('an identity the service does not mark counts as verified only when the link was sent to it', () => {
  /** A login whose verify-code answer has its identities replaced by `identities`. */
  async function loginWithIdentities(h: Harness, email: string, identities: (sent: string) => object[]) {
    let answer: Record<string, unknown> | undefined;
    const probe = await pool.harness({
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
    const h = await pool.harness();
    const { browser, res } = await loginWithIdentities(h, 'sent-to@example.com', (sent) => [
      unmarked(sent.toUpperCase()),
    ]);
    expect(res.status).toBe(302);
    const me = await browser.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.record.verified).toEqual(['EMAIL']);
  });

  it('another address: refused, NO_VERIFIED_IDENTITY (401), nobody logged in', async () => {
    const h = await pool.harness();
    const { browser, res } = await loginWithIdentities(h, 'asked@example.com', () => [
      unmarked('someone-else@example.com'),
    ]);
    expect(res.status).toBe(401);
    expect((await browser.get('/me')).status).toBe(401);
  });
});
