import type { RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { requireServiceSession } from '../../src/index.js';
import { clickLink, lastLinkTo } from '../helpers/harness.js';
import type { Harness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// requireServiceSession() (src/guards/requireServiceSession.ts): a login by the service's
// session token stays let through only while the service says its session lives.

const shared = useSharedEmulator();

/** Completes a login by link in one browser and returns the service session's token. */
async function completedSession(h: Harness, email: string): Promise<string> {
  const browser = h.browser();
  await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email }).expect(200);
  const signedIn = await browser.get(await clickLink(lastLinkTo(h.emulator, email)));
  expect(signedIn.status).toBe(302);
  const entry = h.emulator
    .outbox()
    .filter((e) => e.to === email)
    .at(-1)!;
  return entry.sessionToken;
}

describe('requireServiceSession(): the service session behind a login', () => {
  describe('on a clock that moves only when told', () => {
    // The emulator's clock moves only when told: its session ends when the test says so.
    const manual = useSharedEmulator({ clock: 'manual' });

    it('lets a session-token login through while the service session lives, asks again after recheckAfterMs, and refuses once it ended', async () => {
      const emulator = manual.emulator();
      // The guards are made once the strategy exists (the harness builds both).
      let cached: RequestHandler | undefined;
      let fresh: RequestHandler | undefined;
      const h = await manual.harness({
        session: 'express',
        strategy: { maxAuthAgeMs: 3_600_000 },
        routes: (app) => {
          app.get(
            '/cached',
            (req, res, next) => (cached ??= requireServiceSession(h.strategy) as RequestHandler)(req, res, next),
            (_req, res) => void res.json({ ok: true }),
          );
          app.get(
            '/fresh',
            (req, res, next) =>
              (fresh ??= requireServiceSession(h.strategy, { recheckAfterMs: 0 }) as RequestHandler)(req, res, next),
            (_req, res) => void res.json({ ok: true }),
          );
        },
      });
      const sessionToken = await completedSession(h, 'session-guard@example.com');
      const browser = h.browser();
      await browser.post('/auth/callback').set('accept', 'application/json').send({ sessionToken }).expect(302);
      expect((await browser.get('/cached').set('accept', 'application/json')).status).toBe(200);
      expect((await browser.get('/fresh').set('accept', 'application/json')).status).toBe(200);

      emulator.advanceTime(30 * 86_400_000);
      // Asked at most once per recheckAfterMs: the cached answer still stands.
      expect((await browser.get('/cached').set('accept', 'application/json')).status).toBe(200);
      const ended = await browser.get('/fresh').set('accept', 'application/json');
      expect(ended.status).toBe(401);
      expect(ended.body).toEqual({ error: { code: 'SESSION_ENDED' } });
    });
  });

  it('passes a login by link, which has no service session to ask about', async () => {
    let guard: RequestHandler | undefined;
    const h = await shared.harness({
      session: 'express',
      routes: (app) =>
        app.get(
          '/guarded',
          (req, res, next) => (guard ??= requireServiceSession(h.strategy) as RequestHandler)(req, res, next),
          (_req, res) => void res.json({ ok: true }),
        ),
    });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'link@example.com' });
    await browser.get(await clickLink(lastLinkTo(h.emulator, 'link@example.com'))).expect(302);
    expect((await browser.get('/guarded').set('accept', 'application/json')).status).toBe(200);
  });
});
