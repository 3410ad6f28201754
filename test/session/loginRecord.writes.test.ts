// The login record as an app sees it: bound to the session's user as that user serializes now,
// written only by a login that put a user into the session, and never by one that failed.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import passportPkg from 'passport';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { MagicLinkStrategy, readLoginRecord, requireIdentity, requireLowRisk } from '../../src/index.js';
import { CLIENT, clickLink, lastLinkTo, loginVia } from '../helpers/harness.js';
import type { Harness, SessionKind } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness, emulator } = useSharedEmulator();
const json = { accept: 'application/json' };

type SessionWithUser = { passport: { user: Record<string, unknown> } };

/** `requireIdentity('EMAIL')`, then `change` on the session's user, then the same guard again. */
async function twoGuards(verifyUser: (id: string) => object, change: (user: Record<string, unknown>) => void) {
  return harness({
    verify: async (profile) => verifyUser(profile.id),
    routes: (app) => {
      app.get(
        '/twice',
        requireIdentity('EMAIL'),
        (req, _res, next) => {
          if (req.query.change === '1') change((req.session as unknown as SessionWithUser).passport.user);
          next();
        },
        requireIdentity('EMAIL'),
        (_req, res) => res.json({ ok: true }),
      );
    },
  });
}

describe('a user changed in place between two guards is judged as it is now', () => {
  it('a one-member user whose only member changed no longer has the login (the second guard refuses)', async () => {
    const h = await twoGuards(
      (id) => ({ id }),
      (user) => {
        user.id = 'mallory@example.com';
      },
    );
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    expect((await browser.get('/twice').set(json)).status).toBe(200);
    const res = await browser.get('/twice?change=1').set(json);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('a nested member changed in place: another serialized user, so the second guard refuses', async () => {
    const h = await twoGuards(
      (id) => ({ account: { id } }),
      (user) => {
        (user.account as Record<string, unknown>).id = 'mallory@example.com';
      },
    );
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    expect((await browser.get('/twice').set(json)).status).toBe(200);
    const res = await browser.get('/twice?change=1').set(json);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
  });
});

describe('what readLoginRecord() gives', () => {
  it.each<SessionKind>(['cookie', 'express'])(
    "is the caller's own copy: changing it changes neither the guards' view nor a later read (%s session)",
    async (session) => {
      const h = await harness({
        session,
        strategy: { enrich: ['secureInfo'] },
        routes: (app) => {
          app.get(
            '/change-then-guard',
            (req, _res, next) => {
              const record = readLoginRecord(req)!;
              record.verified.length = 0;
              record.risk!.action = 'block';
              (record.risk!.signals as { f: string }).f = '!';
              next();
            },
            requireIdentity('EMAIL'),
            requireLowRisk(),
            (req, res) => res.json({ record: readLoginRecord(req) }),
          );
        },
      });
      const browser = h.browser();
      await loginVia(h, browser, { email: 'copy@example.com' }, 'clean');
      const before = (await browser.get('/me').set(json)).body.record;
      for (let i = 0; i < 2; i++) {
        const res = await browser.get('/change-then-guard').set(json);
        expect(res.status).toBe(200);
        expect(res.body.record).toEqual(before);
      }
    },
  );

  it('a member JSON leaves out, added to the user, leaves the login counting (the same serialized user)', async () => {
    const h = await twoGuards(
      (id) => ({ id, email: id }),
      (user) => {
        user.nickname = undefined;
      },
    );
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    for (let i = 0; i < 2; i++) expect((await browser.get('/twice?change=1').set(json)).status).toBe(200);
  });
});

describe('a login the app makes itself', () => {
  it('req.logIn(user, { session: false }) without a callback, as Passport documents it, answers as the app says', async () => {
    const ref: { h?: Harness } = {};
    const h = await harness({
      routes: (app) =>
        app.get('/auth/api-callback', (req, res, next) =>
          ref.h!.passport.authenticate('magic-link', (err: unknown, user: unknown) => {
            if (err || !user) return next(err ?? new Error('no user'));
            // Express's types ask for a callback; Passport's own docs show this call without one.
            (req as unknown as { logIn(user: unknown, options: { session: boolean }): void }).logIn(user, {
              session: false,
            });
            res.json({ user: req.user });
          })(req, res, next),
        ),
    });
    ref.h = h;
    const browser = h.browser();
    await browser.post('/auth/magic-link').set(json).send({ email: 'api@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'api@example.com'));
    const res = await browser.get(callback.replace('/auth/callback', '/auth/api-callback'));
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: 'api@example.com' });
    // Not logged into the session, so no record there either.
    expect((await browser.get('/me').set(json)).status).toBe(401);
  });
});

describe('a login that failed', () => {
  it('leaves no login record behind (express-session, a serializeUser that fails)', async () => {
    const app = express();
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const passport = new passportPkg.Passport();
    passport.serializeUser((_user: Express.User, done) => done(new Error('the user store is down')));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    const strategy = new MagicLinkStrategy(
      {
        clientId: CLIENT.clientId,
        clientSecret: CLIENT.clientSecret,
        authUrl: emulator().authUrl,
        userAuthUrl: emulator().userAuthUrl,
        callbackUrl: `${baseUrl}/auth/callback`,
      },
      async (profile) => ({ id: profile.id }),
    );
    passport.use(strategy);
    app.use(
      expressSession({ secret: 'login-record-test-secret', resave: false, saveUninitialized: false }),
      passport.session(),
    );
    app.post('/auth/magic-link', express.json(), strategy.send());
    app.get('/auth/callback', passport.authenticate(strategy.name, { successRedirect: '/record' }));
    app.get('/record', (req, res) => res.json({ user: req.user ?? null, record: readLoginRecord(req) ?? null }));
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ error: 'login failed' });
    });
    try {
      const browser = supertest.agent(server).set('origin', baseUrl);
      expect((await browser.post('/auth/magic-link').set(json).send({ email: 'failed@example.com' })).status).toBe(200);
      const callback = await clickLink(lastLinkTo(emulator(), 'failed@example.com'));
      expect((await browser.get(callback)).status).toBe(500);
      const after = await browser.get('/record').set(json);
      expect(after.body).toEqual({ user: null, record: null });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await strategy.client.close();
    }
  });
});
