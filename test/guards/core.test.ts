// Who counts as logged in. Passport's
// `isAuthenticated()` decides where the app has it (it knows the app's `userProperty`); an app
// without passport falls back to `req.user`. Over real HTTP with real express-session/passport.
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import passport from 'passport';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { requireIdentity, requireLowRisk } from '../../src/index.js';

/** An app whose `/pay` is guarded; `before` runs ahead of the guard (passport, an API-key user). */
async function guardedApp(before: express.RequestHandler[]) {
  const app = express();
  app.use(expressSession({ secret: 'guards-core-test', resave: false, saveUninitialized: false }));
  if (before.length > 0) app.use(...before);
  app.get('/pay', requireLowRisk(), (_req, res) => res.send('paid'));
  app.use((err: { code?: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: { code: err.code ?? 'INTERNAL' } });
  });
  const server = app.listen(0);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    agent: supertest.agent(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The app's own notion of a "user" on `req.user` (an API key's owner), which is not a login. */
const apiKeyUser: express.RequestHandler = (req, _res, next) => {
  (req as { user?: unknown }).user = { apiKey: 'k-1' };
  next();
};

describe('who a guard counts as logged in', () => {
  it('without passport, a visitor with no req.user is UNAUTHENTICATED (401), not a server error', async () => {
    const app = await guardedApp([]);
    try {
      const res = await app.agent.get('/pay').set('accept', 'application/json');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
    } finally {
      await app.close();
    }
  });

  it("with passport's userProperty elsewhere, a req.user passport did not log in is UNAUTHENTICATED (401)", async () => {
    // passport.initialize({ userProperty: 'account' }): passport's logins live on req.account, and
    // isAuthenticated() reads that; the app's own req.user is not a magic-link login.
    const pp = new passport.Passport();
    const app = await guardedApp([pp.initialize({ userProperty: 'account' }), pp.session(), apiKeyUser]);
    try {
      const res = await app.agent.get('/pay').set('accept', 'application/json');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
      const page = await app.agent.get('/pay').set('accept', 'text/html');
      expect(page.status).toBe(401);
      expect(page.text).not.toContain('paid');
    } finally {
      await app.close();
    }
  });
});

describe('what a guard tells the developer who set it up wrong', () => {
  it('a session without a magic-link login (another login on req.user) is the NO_LOGIN_RECORD error, never a pass', async () => {
    const app = await guardedApp([apiKeyUser]);
    try {
      const res = await app.agent.get('/pay').set('accept', 'application/json');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 'NO_LOGIN_RECORD' } });
    } finally {
      await app.close();
    }
  });

  it('every guard takes loginUrl, and names itself, the option and what it wants when it is wrong', () => {
    expect(() => requireIdentity('EMAIL', { loginUrl: '/login' })).not.toThrow();
    expect(() => requireIdentity('EMAIL', { loginUrl: 'login' })).toThrow(
      new TypeError("requireIdentity(): options.loginUrl must be a path on this site, such as '/login'"),
    );
    expect(() => requireIdentity('EMAIL', 'login' as never)).toThrow(
      new TypeError('requireIdentity(): options must be an object'),
    );
    expect(() => requireIdentity('EMAIL', { loginPath: '/login' } as never)).toThrow(/^requireIdentity\(\): /);
  });
});
