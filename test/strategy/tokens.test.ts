/**
 * The age of a frontend token rests only on a time that dates the sign-in: `verifiedAt`, or the
 * answer's `timestamp` when the app knows it stamps the sign-in. Read strictly (src/wire/time.ts).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticatedAt, MAX_CLOCK_SKEW_MS } from '../../src/strategy/tokens.js';
import { warnOnce } from '../../src/errors/warnings.js';
import type { TokenValidationResult } from '../../src/wire/types.js';
import { type MagicLinkProfile, MemoryFlowStore } from '../../src/index.js';
import { CLIENT, type Harness, type HarnessOptions, loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import express from 'express';
import type { Emulator, EmulatorQuirks } from '../../src/emulator/index.js';

const base = (identities: TokenValidationResult['identities'], timestamp?: string): TokenValidationResult => ({
  token: 't',
  userId: 'u',
  identities,
  ...(timestamp === undefined ? {} : { timestamp }),
});
const email = { identityType: 'EMAIL' as const, identityValue: 'ada@example.com', verified: true };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('authenticatedAt', () => {
  it('the latest verifiedAt, whatever the stamp says', () => {
    const answer = base(
      [
        { ...email, verifiedAt: '2026-11-22T10:00:00Z' },
        { ...email, verifiedAt: '2026-11-22T10:05:00Z' },
      ],
      '2030-01-01T00:00:00Z',
    );
    expect(authenticatedAt(answer)).toBe(Date.UTC(2026, 10, 22, 10, 5));
  });

  it('a zone-less verifiedAt dates nothing (it would be local time of this server)', () => {
    expect(authenticatedAt(base([{ ...email, verifiedAt: '2026-11-22T10:00:00' }]))).toBeUndefined();
  });

  it('only a stamp of unknown meaning: undefined, and the operator is warned with OTPLESS_TOKEN_TIME_UNKNOWN', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const answer = base([email], '2026-11-22T10:00:00Z');
    expect(authenticatedAt(answer)).toBeUndefined();
    expect(authenticatedAt(answer, 'answer')).toBeUndefined();
    // Once per process: emitted now, or by an earlier file sharing this process; either way the
    // code is spent, and never emitted twice.
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
    if (warn.mock.calls.length === 1) {
      expect(warn.mock.calls[0]![1]).toMatchObject({
        type: 'PassportOtplessWarning',
        code: 'OTPLESS_TOKEN_TIME_UNKNOWN',
      });
    }
    expect(warnOnce('OTPLESS_TOKEN_TIME_UNKNOWN')).toBe(false);
  });

  it("a stamp known to date the sign-in ('signIn', as otpless-check finds it) counts", () => {
    expect(authenticatedAt(base([email], '2026-11-22T10:00:00Z'), 'signIn')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(authenticatedAt(base([email], '2026-11-22T10:00:00'), 'signIn')).toBeUndefined();
  });
});

// A frontend token logs in once, across instances, only while its authentication is
// recent by the service's own time, and its signals carry that time, never a later one.

describe('frontend token logins', () => {
  const pool = useSharedEmulator();
  const app = (options: HarnessOptions = {}) => pool.harness(options);
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = pool.emulator();
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
      const a = await app({ strategy: { store: flowStore } });
      const b = await app({ strategy: { store: flowStore } });
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
        expect(
          (await browser.post('/auth/callback').set('origin', h.baseUrl).type('form').send({ token })).status,
        ).toBe(302);
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
});

// A frontend token is used once for at least as
// long as it could pass the age check, and its age is judged on the service's own sign-in times
// (`verifiedAt`), with an answer that carries no usable one refused. Over real HTTP: what the browser sees.

describe("the used mark and the age check, on the service's sign-in times", () => {
  const pool = useSharedEmulator();
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = pool.emulator();
  });

  const VALIDATE = '/auth/v1/validate/token';
  const MINUTE = 60_000;

  /**
   * An app whose `/auth/token` answers the strategy's verdict as JSON (a custom callback, as an
   * API app writes it): the status and the failure code the person's page would act on.
   */
  async function tokenApp(options: HarnessOptions = {}): Promise<Harness> {
    const ref: { h?: Harness } = {};
    const h = await pool.harness({
      ...options,
      routes: (app) => {
        app.post('/auth/token', express.urlencoded({ extended: false }), (req, res, next) => {
          const h = ref.h!;
          h.passport.authenticate(
            h.strategy.name,
            (err: unknown, user: unknown, info: { code?: string }, status: number) => {
              if (err) return next(err);
              if (!user) return res.status(Number(status) || 401).json({ code: info?.code });
              req.logIn(user as Express.User, (loginErr) => (loginErr ? next(loginErr) : res.json({ ok: true })));
            },
          )(req, res, next);
        });
      },
    });
    ref.h = h;
    return h;
  }

  const postToken = (h: Harness, token: string) =>
    h.browser().post('/auth/token').set('origin', h.baseUrl).type('form').send({ token });

  /** The emulator's real validate-token answer for a fresh token, to be altered. */
  async function validateAnswer(email: string): Promise<{ token: string; body: Record<string, unknown> }> {
    const token = emulator.issueToken({ email });
    const res = await fetch(`${emulator.userAuthUrl}${VALIDATE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(200);
    return { token, body: (await res.json()) as Record<string, unknown> };
  }

  type Identity = Record<string, unknown>;
  const iso = (ms: number) => new Date(ms).toISOString();

  /** The answer with its identities and timestamp replaced (undefined drops the field). */
  function answerWith(
    body: Record<string, unknown>,
    identity: (i: Identity) => Identity,
    timestamp: string | undefined,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = { ...body, identities: (body.identities as Identity[]).map(identity) };
    if (timestamp === undefined) delete out.timestamp;
    else out.timestamp = timestamp;
    return out;
  }

  const withoutVerifiedAt = ({ verifiedAt: _dropped, ...rest }: Identity) => rest;

  describe('a frontend token is used once, for as long as it could pass the age check', () => {
    it('with maxAuthAgeMs under a minute, the same token again is refused at once', async () => {
      const h = await tokenApp({ strategy: { maxAuthAgeMs: 30_000 } });
      const token = emulator.issueToken({ email: 'short-age@example.com' });
      const first = await postToken(h, token);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ok: true });
      const again = await postToken(h, token);
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ code: 'TOKEN_REJECTED' });
    });

    it('the used mark outlives the whole age window: a replay after maxAuthAgeMs on the store clock is refused', async () => {
      let storeNow = Date.now();
      const flowStore = new MemoryFlowStore({}, () => storeNow);
      const h = await tokenApp({ strategy: { maxAuthAgeMs: 30_000, store: flowStore } });
      const token = emulator.issueToken({ email: 'window@example.com' });
      expect((await postToken(h, token)).status).toBe(200);
      // The store's time moves past the age window (the token itself is still recent to the
      // strategy, whose clock did not move): only the mark stands between it and a second login.
      storeNow += 30_000 + 1_000;
      const again = await postToken(h, token);
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ code: 'TOKEN_REJECTED' });
    });
  });

  describe("a frontend token's age is judged on the service's own times", () => {
    it('an identity verified 10 minutes ago is TOKEN_REJECTED (too old) under the 5-minute default, whatever the answer stamp', async () => {
      const h = await tokenApp();
      const { token, body } = await validateAnswer('verified-old@example.com');
      const old = iso(Date.now() - 10 * MINUTE);
      emulator.fault({
        path: VALIDATE,
        status: 200,
        body: answerWith(body, (i) => ({ ...i, verifiedAt: old }), iso(Date.now())),
      });
      const res = await postToken(h, token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'TOKEN_REJECTED' });
      expect((await h.browser().get('/me')).status).toBe(401);
    });

    it('identities without verifiedAt and a 10-minute-old answer stamp: TOKEN_REJECTED', async () => {
      const h = await tokenApp();
      const { token, body } = await validateAnswer('stamp-old@example.com');
      emulator.fault({
        path: VALIDATE,
        status: 200,
        body: answerWith(body, withoutVerifiedAt, iso(Date.now() - 10 * MINUTE)),
      });
      const res = await postToken(h, token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'TOKEN_REJECTED' });
    });

    it('identities without verifiedAt and a fresh answer stamp: TOKEN_REJECTED, a stamp of unknown meaning dates no sign-in', async () => {
      // Stamped at answer time, it would read as fresh on every replay (docs/service-facts.md, unknown 6).
      const h = await tokenApp();
      const { token, body } = await validateAnswer('stamp-fresh@example.com');
      emulator.fault({ path: VALIDATE, status: 200, body: answerWith(body, withoutVerifiedAt, iso(Date.now())) });
      const res = await postToken(h, token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'TOKEN_REJECTED' });
    });

    it('no time at all (no verifiedAt, no stamp, or unreadable ones): TOKEN_REJECTED (too old), never a login', async () => {
      const h = await tokenApp();
      for (const [identity, stamp] of [
        [withoutVerifiedAt, undefined],
        [(i: Identity) => ({ ...i, verifiedAt: 'not a date' }), 'not a date either'],
      ] as const) {
        const { token, body } = await validateAnswer('no-time@example.com');
        emulator.fault({ path: VALIDATE, status: 200, body: answerWith(body, identity, stamp) });
        const res = await postToken(h, token);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 'TOKEN_REJECTED' });
      }
      expect((await h.browser().get('/me')).status).toBe(401);
    });

    it('of several identities, the latest verification counts: one fresh among old ones logs in', async () => {
      const h = await tokenApp();
      const { token, body } = await validateAnswer('several@example.com');
      const [first] = body.identities as Identity[];
      const identities = [
        { ...first, verifiedAt: iso(Date.now() - 60 * MINUTE) },
        { ...first, identityType: 'MOBILE', identityValue: '919812345678', verifiedAt: iso(Date.now()) },
        { ...first, verifiedAt: iso(Date.now() - 30 * MINUTE) },
      ];
      emulator.fault({ path: VALIDATE, status: 200, body: { ...body, identities, timestamp: iso(Date.now()) } });
      const res = await postToken(h, token);
      expect(res.status).toBe(200);
    });
  });

  describe('the age window is closed at both ends, to the millisecond', () => {
    // Our clock stands still (only `Date` is faked, timers and sockets run as usual), so "exactly
    // maxAuthAgeMs ago" is exact: the edges are part of the window the used mark covers.
    const NOW = Date.parse('2026-11-25T12:00:00.000Z');
    afterEach(() => {
      vi.useRealTimers();
    });

    async function loginVerifiedAt(h: Harness, email: string, verifiedAt: number) {
      const { token, body } = await validateAnswer(email);
      emulator.fault({
        path: VALIDATE,
        status: 200,
        body: answerWith(body, (i) => ({ ...i, verifiedAt: iso(verifiedAt) }), iso(verifiedAt)),
      });
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(NOW);
      try {
        return await postToken(h, token);
      } finally {
        vi.useRealTimers();
      }
    }

    it('verified exactly maxAuthAgeMs ago signs in; one millisecond more is TOKEN_REJECTED', async () => {
      const h = await tokenApp({ strategy: { maxAuthAgeMs: 5 * MINUTE } });
      const edge = await loginVerifiedAt(h, 'age-edge@example.com', NOW - 5 * MINUTE);
      expect(edge.status).toBe(200);
      expect(edge.body).toEqual({ ok: true });
      const past = await loginVerifiedAt(h, 'age-past@example.com', NOW - 5 * MINUTE - 1);
      expect(past.status).toBe(401);
      expect(past.body).toEqual({ code: 'TOKEN_REJECTED' });
    });

    it('a service clock exactly MAX_CLOCK_SKEW_MS ahead signs in; one millisecond more is TOKEN_REJECTED', async () => {
      const h = await tokenApp();
      const edge = await loginVerifiedAt(h, 'skew-edge@example.com', NOW + MAX_CLOCK_SKEW_MS);
      expect(edge.status).toBe(200);
      expect(edge.body).toEqual({ ok: true });
      const ahead = await loginVerifiedAt(h, 'skew-ahead@example.com', NOW + MAX_CLOCK_SKEW_MS + 1);
      expect(ahead.status).toBe(401);
      expect(ahead.body).toEqual({ code: 'TOKEN_REJECTED' });
    });
  });
});

/**
 * The token replay probe: with the emulator stamping validate-token's `timestamp` at answer time
 * (the `timestampAtAnswer` quirk, unknown 6 of docs/service-facts.md), a used frontend token
 * stays refused past `maxAuthAgeMs + 60 s`. The emulator runs on its manual clock and the app's
 * `Date` is moved by exactly as much: no wall-clock margin.
 */

describe('a used token, whatever the service stamps as its time', () => {
  const MAX_AGE = 30_000;
  /** Past the age window and the used mark's life (maxAuthAgeMs + 60 s) and its 30 s generation. */
  const LATER = MAX_AGE + 60_000 + 31_000;

  const pool = useSharedEmulator({ clock: 'manual' });
  let emulator: Emulator;
  beforeAll(() => {
    emulator = pool.emulator();
  });
  // Registered after the emulator's hooks, so run before them: the app closes on real timers.
  afterEach(() => {
    vi.useRealTimers();
  });

  /** An app whose `/auth/token` answers the strategy's verdict as JSON, on a clock set to the emulator's. */
  async function tokenApp(quirks: EmulatorQuirks, store?: MemoryFlowStore): Promise<Harness> {
    emulator.setQuirks(quirks);
    const ref: { h?: Harness } = {};
    const h = await pool.harness({
      strategy: { maxAuthAgeMs: MAX_AGE, ...(store ? { store } : {}) },
      routes: (app) => {
        app.post('/auth/token', express.urlencoded({ extended: false }), (req, res, next) => {
          ref.h!.passport.authenticate(
            ref.h!.strategy.name,
            (err: unknown, user: unknown, info: { code?: string }, status: number) => {
              if (err) return next(err);
              if (!user) return res.status(Number(status) || 401).json({ code: info?.code });
              req.logIn(user as Express.User, (e) => (e ? next(e) : res.json({ ok: true })));
            },
          )(req, res, next);
        });
      },
    });
    ref.h = h;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(emulator.now());
    return h;
  }

  const post = (h: Harness, token: string) =>
    h.browser().post('/auth/token').set('origin', h.baseUrl).type('form').send({ token });

  function advance(ms: number): void {
    emulator.advanceTime(ms);
    vi.setSystemTime(Date.now() + ms);
  }

  describe('a used frontend token stays refused whatever `timestamp` stamps', () => {
    it('stamped at answer time, with verifiedAt: one login, and the replay past maxAuthAgeMs + 60 s is TOKEN_REJECTED', async () => {
      const h = await tokenApp({ timestampAtAnswer: true });
      const token = emulator.issueToken({ email: 'replay-a@example.com' });
      expect((await post(h, token)).body).toEqual({ ok: true });
      advance(LATER);
      const again = await post(h, token);
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ code: 'TOKEN_REJECTED' });
    });

    // verifiedAt itself stamped at answer time: until the package has learned which stamp the
    // service uses (test/login/tokenTimes.test.ts), a used token's mark lives a day, past any age.
    it('verifiedAt stamped at answer time: refused while its short mark would live, and after it', async () => {
      // A store that reads the faked Date, so a short used mark would lapse when the app's clock moves.
      const h = await tokenApp({ verifiedAtAtAnswer: true }, new MemoryFlowStore({}, () => Date.now()));
      const token = emulator.issueToken({ email: 'replay-c@example.com' });
      expect((await post(h, token)).body).toEqual({ ok: true });
      const soon = await post(h, token);
      expect(soon.status).toBe(401);
      expect(soon.body).toEqual({ code: 'TOKEN_REJECTED' });
      advance(LATER);
      const later = await post(h, token);
      expect(later.status).toBe(401);
      expect(later.body).toEqual({ code: 'TOKEN_REJECTED' });
    });

    it('stamped at answer time, and no verifiedAt: nothing dates the sign-in, so no login, then or later', async () => {
      const h = await tokenApp({ timestampAtAnswer: true, omitVerifiedAt: true });
      const token = emulator.issueToken({ email: 'replay-b@example.com' });
      const first = await post(h, token);
      expect(first.status).toBe(401);
      expect(first.body).toEqual({ code: 'TOKEN_REJECTED' });
      advance(LATER);
      const again = await post(h, token);
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ code: 'TOKEN_REJECTED' });
    });
  });
});
