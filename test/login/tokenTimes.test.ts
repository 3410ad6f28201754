/**
 * Whether a frontend token's single use may rest on `verifiedAt` (unknown 8 of
 * docs/service-facts.md), learned at run time when the app has not said: safe either way the
 * service answers. The emulator runs on its manual clock; the class is given the same clock, and
 * the HTTP tests move the app's `Date` by exactly as much: no wall-clock margin.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import express from 'express';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import type { Emulator, EmulatorQuirks } from '../../src/emulator/index.js';
import { MemoryFlowStore } from '../../src/index.js';
import {
  HELD_FOR_MS,
  PROBE_AFTER_MS,
  PROBE_WITHIN_MS,
  TOKEN_TIMES_KEY,
  TokenTimes,
  type TokenVerifiedAtOption,
} from '../../src/login/tokenTimes.js';
import { CLIENT, type Harness, loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { settleWarnings, watchWarnings } from '../helpers/warnings.js';

const pool = useSharedEmulator({ clock: 'manual' });
let emulator: Emulator;
beforeAll(() => {
  emulator = pool.emulator();
});

/** validate-token calls the process makes while `run` runs (the package's own tracing channel). */
async function validateCalls(run: () => Promise<unknown>): Promise<number> {
  let calls = 0;
  const onStart = (message: unknown) => {
    if ((message as { endpoint?: string }).endpoint === 'validateToken') calls++;
  };
  subscribe('tracing:passport-otpless:service:call:start', onStart);
  try {
    await run();
  } finally {
    unsubscribe('tracing:passport-otpless:service:call:start', onStart);
  }
  return calls;
}

describe('TokenTimes, on the emulator through a real client', () => {
  let client: OtplessClient;
  beforeAll(() => {
    client = new OtplessClient({ ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl });
  });

  /** A learner on the emulator's clock, and one accepted token as its probe. */
  async function probed(quirks: EmulatorQuirks = {}, option: TokenVerifiedAtOption = 'learn') {
    emulator.setQuirks(quirks);
    const store = new MemoryFlowStore({}, () => emulator.now());
    const times = new TokenTimes(store, client, option, () => emulator.now());
    const token = emulator.issueToken({ email: `probe-${Math.random()}@example.com` });
    times.accepted(token, await client.validateToken(token));
    return { store, times };
  }

  it('knows nothing before the probe is due, and asks nothing', async () => {
    const { times } = await probed();
    emulator.advanceTime(PROBE_AFTER_MS - 1);
    expect(await validateCalls(async () => expect(await times.known()).toBeUndefined())).toBe(0);
  });

  it('verifiedAt the same on a second validation: it dates the sign-in, kept in the store for every instance', async () => {
    const { store, times } = await probed();
    emulator.advanceTime(PROBE_AFTER_MS);
    expect(await validateCalls(async () => expect(await times.known()).toBe('signIn'))).toBe(1);
    expect(await store.get(TOKEN_TIMES_KEY)).toBe('signIn');
    // Another instance on the same store knows it without a probe of its own.
    const other = new TokenTimes(store, client, 'learn', () => emulator.now());
    expect(await validateCalls(async () => expect(await other.known()).toBe('signIn'))).toBe(0);
  });

  it('what the store holds is read once per instance every few minutes, not at every token login', async () => {
    const { store, times } = await probed();
    emulator.advanceTime(PROBE_AFTER_MS);
    expect(await times.known()).toBe('signIn');
    // Gone from the store: this instance still uses its copy while it is young...
    await store.take(TOKEN_TIMES_KEY);
    emulator.advanceTime(HELD_FOR_MS - 1);
    expect(await times.known()).toBe('signIn');
    // ...and reads the store again once it is not.
    emulator.advanceTime(1);
    expect(await times.known()).toBeUndefined();
    // Nothing held is no copy: a fact another instance stores is seen at the next login.
    await store.create(TOKEN_TIMES_KEY, 'answer', 60_000);
    expect(await times.known()).toBe('answer');
  });

  it('verifiedAt moved: it dates each answer, and that is what the store keeps', async () => {
    const { store, times } = await probed({ verifiedAtAtAnswer: true });
    emulator.advanceTime(PROBE_AFTER_MS);
    expect(await times.known()).toBe('answer');
    expect(await store.get(TOKEN_TIMES_KEY)).toBe('answer');
  });

  it('the service refuses the second validation: tokens die at the service before their marks lapse', async () => {
    const { times } = await probed();
    emulator.advanceTime(PROBE_AFTER_MS);
    emulator.fault({ path: ENDPOINTS.validateToken.path, error: 'invalidToken', times: 1 });
    expect(await times.known()).toBe('singleUse');
  });

  it('no answer from the service says nothing: still unknown, the probe spent, nothing stored', async () => {
    const { store, times } = await probed();
    emulator.advanceTime(PROBE_AFTER_MS);
    emulator.fault({ path: ENDPOINTS.validateToken.path, status: 503, times: 1 });
    expect(await times.known()).toBeUndefined();
    expect(await store.get(TOKEN_TIMES_KEY)).toBeUndefined();
    expect(await validateCalls(async () => expect(await times.known()).toBeUndefined())).toBe(0);
  });

  it('a probe older than a minute is dropped unasked (a refusal then could be its expiry)', async () => {
    const { times } = await probed();
    emulator.advanceTime(PROBE_WITHIN_MS + 1);
    expect(await validateCalls(async () => expect(await times.known()).toBeUndefined())).toBe(0);
  });

  it('concurrent logins share the one second validation', async () => {
    const { times } = await probed();
    emulator.advanceTime(PROBE_AFTER_MS);
    const calls = await validateCalls(async () => {
      expect(await Promise.all([times.known(), times.known(), times.known()])).toEqual(['signIn', 'signIn', 'signIn']);
    });
    expect(calls).toBe(1);
  });

  it('a stamp to the minute is no probe: it may not move in 2.5 s', async () => {
    const store = new MemoryFlowStore({}, () => emulator.now());
    const times = new TokenTimes(store, client, 'learn', () => emulator.now());
    const email = { identityType: 'EMAIL' as const, identityValue: 'm@example.com', verified: true };
    times.accepted('t', { token: 't', userId: 'u', identities: [{ ...email, verifiedAt: '2026-11-22T10:00Z' }] });
    emulator.advanceTime(PROBE_AFTER_MS);
    expect(await validateCalls(async () => expect(await times.known()).toBeUndefined())).toBe(0);
  });

  it("an app's own answer is used as it is: no probe, no store", async () => {
    for (const option of ['signIn', 'answer'] as const) {
      const { store, times } = await probed({}, option);
      emulator.advanceTime(PROBE_AFTER_MS);
      expect(await validateCalls(async () => expect(await times.known()).toBe(option))).toBe(0);
      expect(await store.get(TOKEN_TIMES_KEY)).toBeUndefined();
    }
  });
});

describe('frontend-token logins, either way the service stamps verifiedAt', () => {
  const MAX_AGE = 30_000;
  /** Past the age window, the short used mark's life (maxAuthAgeMs + 60 s) and its 30 s generation. */
  const LATER = MAX_AGE + 60_000 + 31_000;
  const warnings = watchWarnings();

  afterEach(() => {
    vi.useRealTimers();
    warnings.length = 0;
  });

  /** An app whose `/auth/token` answers the strategy's verdict as JSON, on a clock set to the emulator's. */
  async function tokenApp(quirks: EmulatorQuirks, tokenVerifiedAt?: TokenVerifiedAtOption) {
    emulator.setQuirks(quirks);
    const store = new MemoryFlowStore({}, () => Date.now());
    const ref: { h?: Harness } = {};
    const h = await pool.harness({
      strategy: { maxAuthAgeMs: MAX_AGE, store, ...(tokenVerifiedAt ? { tokenVerifiedAt } : {}) },
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
    return { h, store };
  }

  const post = (h: Harness, token: string) =>
    h.browser().post('/auth/token').set('origin', h.baseUrl).type('form').send({ token });
  const token = (name: string) => emulator.issueToken({ email: `${name}@example.com` });

  function advance(ms: number): void {
    emulator.advanceTime(ms);
    vi.setSystemTime(Date.now() + ms);
  }

  it('stamped at each answer: the first token signs in once; the next login learns it, is refused and warns; no used token ever comes back', async () => {
    const { h, store } = await tokenApp({ verifiedAtAtAnswer: true });
    const first = token('answer-first');
    expect((await post(h, first)).body).toEqual({ ok: true });
    advance(PROBE_AFTER_MS);
    const next = await post(h, token('answer-next'));
    expect(next.status).toBe(401);
    expect(next.body).toEqual({ code: 'TOKEN_REJECTED' });
    expect(await store.get(TOKEN_TIMES_KEY)).toBe('answer');
    await settleWarnings();
    expect(warnings.map((w) => w.code)).toEqual(['OTPLESS_TOKEN_REPLAYABLE']);
    // Long past the short mark's life, the used token reads fresh to the age check: still refused.
    advance(LATER);
    const replay = await post(h, first);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ code: 'TOKEN_REJECTED' });
    // Magic-link logins do not rest on verifiedAt: they go on.
    const browser = h.browser();
    const linked = await loginVia(h, browser, { email: 'link-still@example.com' });
    expect(linked.status).toBe(302);
    expect((await browser.get('/me')).status).toBe(200);
  });

  it('stamped at each answer, never learned (one token login): its used mark outlives any age check', async () => {
    const { h } = await tokenApp({ verifiedAtAtAnswer: true });
    const only = token('answer-only');
    expect((await post(h, only)).body).toEqual({ ok: true });
    advance(LATER);
    const replay = await post(h, only);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ code: 'TOKEN_REJECTED' });
  });

  it('dating the sign-in: learned on the next login, which signs in; used tokens stay refused', async () => {
    const { h, store } = await tokenApp({});
    const first = token('signin-first');
    expect((await post(h, first)).body).toEqual({ ok: true });
    advance(PROBE_AFTER_MS);
    const second = token('signin-second');
    expect((await post(h, second)).body).toEqual({ ok: true });
    expect(await store.get(TOKEN_TIMES_KEY)).toBe('signIn');
    advance(LATER);
    for (const used of [first, second]) {
      const replay = await post(h, used);
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ code: 'TOKEN_REJECTED' });
    }
    await settleWarnings();
    expect(warnings).toEqual([]);
  });

  // Its warning is the first test's (once a process).
  it("tokenVerifiedAt: 'answer' refuses every frontend token at once", async () => {
    const { h } = await tokenApp({}, 'answer');
    const refused = await post(h, token('said-answer'));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: 'TOKEN_REJECTED' });
  });

  it("tokenVerifiedAt: 'signIn' signs in with one validation a login, no probe", async () => {
    const { h } = await tokenApp({}, 'signIn');
    const calls = await validateCalls(async () => {
      expect((await post(h, token('said-signin-1'))).body).toEqual({ ok: true });
      advance(PROBE_AFTER_MS);
      expect((await post(h, token('said-signin-2'))).body).toEqual({ ok: true });
    });
    expect(calls).toBe(2);
  });

  it('an unknown value of tokenVerifiedAt is a TypeError naming the option', async () => {
    await expect(tokenApp({}, 'sometimes' as TokenVerifiedAtOption)).rejects.toThrow(/tokenVerifiedAt/);
  });
});
