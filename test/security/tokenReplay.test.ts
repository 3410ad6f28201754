/**
 * The token replay probe: with the emulator stamping validate-token's `timestamp` at answer time
 * (the `timestampAtAnswer` quirk, unknown 6 of docs/service-facts.md), a used frontend token
 * stays refused past `maxAuthAgeMs + 60 s`. The emulator runs on its manual clock and the app's
 * `Date` is moved by exactly as much: no wall-clock margin.
 */
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type Emulator, type EmulatorQuirks } from '../../src/emulator/index.js';
import { CLIENT, startHarness, type Harness } from '../helpers/harness.js';

const MAX_AGE = 30_000;
/** Past the age window and the used mark's life (maxAuthAgeMs + 60 s) and its 30 s generation. */
const LATER = MAX_AGE + 60_000 + 31_000;

let emulator: Emulator;
const harnesses: Harness[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true, clock: 'manual' });
});
afterEach(async () => {
  vi.useRealTimers();
  emulator.setQuirks({});
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
afterAll(async () => {
  await emulator.close();
});

/** An app whose `/auth/token` answers the strategy's verdict as JSON, on a clock set to the emulator's. */
async function tokenApp(quirks: EmulatorQuirks): Promise<Harness> {
  emulator.setQuirks(quirks);
  const ref: { h?: Harness } = {};
  const h = await startHarness({
    emulator,
    strategy: { maxAuthAgeMs: MAX_AGE },
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
  harnesses.push(h);
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
