// Mutation survivors 1 and 2 (docs/testing.md): a frontend token is used once for at least as
// long as it could pass the age check, and its age is judged on the service's own sign-in times
// (`verifiedAt`), with an answer that carries no usable one refused. Over real HTTP: what the browser sees.
import express from 'express';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_CLOCK_SKEW_MS } from '../../src/strategy/tokens.js';
import { MemoryFlowStore } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { CLIENT, type Harness, type HarnessOptions } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

const pool = harnessPool();
let emulator: Emulator;
beforeAll(async () => {
  emulator = await pool.emulator();
});

const VALIDATE = '/auth/v1/validate/token';
const MINUTE = 60_000;

/**
 * An app whose `/auth/token` answers the strategy's verdict as JSON (a custom callback, as an
 * API app writes it): the status and the failure code the person's page would act on.
 */
async function tokenApp(options: HarnessOptions = {}): Promise<Harness> {
  const ref: { h?: Harness } = {};
  const h = await pool.app({
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
    const h = await tokenApp({ strategy: { maxAuthAgeMs: 30_000, flowStore } });
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
