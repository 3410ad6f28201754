import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import cookieSession from 'cookie-session';
import express from 'express';
import passportPkg from 'passport';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, requireIdentity, requireLowRisk, sessionCompat } from '../../src/index.js';
import { writeLoginRisk } from '../../src/session/loginRecord.js';
import type { LoginRecord } from '../../src/session/loginRecord.js';
import { CLIENT } from '../helpers/harness.js';
import { signedSessionCookie } from '../helpers/sessionCookie.js';
import { settleWarnings, watchWarnings } from '../helpers/warnings.js';

// A process whose routes use the guards but that built no MagicLinkStrategy (an API process beside
// the one that signs in) has no key to check a login record with: every record reads as none, and
// the operator hears why, once (OTPLESS_NO_RECORD_KEY); writing a record there is an error. In a
// process of its own (vitest.config.ts, ISOLATED): any other test file builds a strategy.

const warnings = watchWarnings();

/** A cookie session a real login wrote (harness client secret and cookie key, `vpn` risk): see loginRecord.test.ts. */
const WRITTEN = {
  passport: { user: { id: 'pinned@example.com', email: 'pinned@example.com' } },
  otpless: {
    v: 2,
    id: 'pinned@example.com',
    verified: ['EMAIL'],
    risk: {
      action: 'challenge',
      at: 1795708645386,
      s: 'MB1Hcyfz8ukWYOGr.16Is5CBa9b2ooUGwX2ITFA.p4ff1gDcbo-tdwqvH2pLkP6vQ7HHoZz3FX_apWNmJfmvoro1fVISJ38YHiA4XOmhBfAY1pJJT5sjdYjue1Qd9fQ-IhIY',
    },
    k: 'AtOu9A5yVOL',
    b: '9iXpbjpnVF-tWFNNOrEYqw',
  },
};

/** The guarded app, with cookie-session and Passport as the signing-in process has them, and no strategy. */
async function apiApp(): Promise<{ server: Server; browser: () => supertest.Agent }> {
  const app = express();
  const passport = new passportPkg.Passport();
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  app.use(cookieSession({ name: 'sess', keys: ['harness-cookie-key'] }));
  app.use(sessionCompat());
  app.use(passport.session());
  app.get('/low-risk', requireLowRisk(), (_req, res) => void res.json({ ok: true }));
  app.get('/identity', requireIdentity('EMAIL'), (_req, res) => void res.json({ ok: true }));
  app.use((err: { status?: number; code?: string }, _req: express.Request, res: express.Response, _n: unknown) => {
    void _n;
    res.status(err.status ?? 500).json({ error: { code: err.code ?? 'INTERNAL' } });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, browser: () => supertest.agent(url).set('cookie', signedSessionCookie(WRITTEN)) };
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const noKey = () => warnings.filter((w) => w.code === 'OTPLESS_NO_RECORD_KEY');

// In this order: the process has no key until the last test builds a strategy.
describe('a process that built no strategy', () => {
  it('refuses to write a login record, with an error that says what to build', () => {
    const req = { session: { passport: { user: { id: 'a' } } } };
    const record: LoginRecord = { v: 2, id: 'a', k: 'AtOu9A5yVOL', b: '', verified: [] };
    let thrown: unknown;
    try {
      writeLoginRisk(req as never, record, { signals: null, action: 'block', at: 1 });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe(
      'passport-otpless: no MagicLinkStrategy was built in this process, so no key to bind a login record with',
    );
    // Nothing was written.
    expect(req.session).toEqual({ passport: { user: { id: 'a' } } });
  });

  it('reads every record as none (401 UNAUTHENTICATED), and warns once why', async () => {
    const { browser } = await apiApp();
    for (const route of ['/low-risk', '/identity', '/low-risk']) {
      const res = await browser().get(route).set('accept', 'application/json');
      expect(res.status, route).toBe(401);
      expect(res.body, route).toEqual({ error: { code: 'UNAUTHENTICATED' } });
    }
    await settleWarnings();
    expect(noKey()).toEqual([
      {
        code: 'OTPLESS_NO_RECORD_KEY',
        message:
          'passport-otpless: a login record was read in a process where no MagicLinkStrategy was built, so it ' +
          'cannot be checked and counts as none. Build the strategy (with the same storeSecret or client secret) ' +
          'in every process whose routes use the guards.',
      },
    ]);
  });

  it('once the strategy is built with the same client secret, the same record counts, and nothing more is said', async () => {
    const strategy = new MagicLinkStrategy(
      { clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, callbackUrl: 'http://127.0.0.1/auth/callback' },
      async (profile) => ({ id: profile.id }),
    );
    try {
      const { browser } = await apiApp();
      // The record is judged now: its signals (vpn) ask for a challenge; the identity passes.
      const judged = await browser().get('/low-risk').set('accept', 'application/json');
      expect(judged.status).toBe(403);
      expect(judged.body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
      expect((await browser().get('/identity').set('accept', 'application/json')).status).toBe(200);
      // A record naming a key this process lacks still reads as none, without a warning: the
      // process has a key, so it is a record of another secret, not a missing setup.
      const other = { ...WRITTEN, otpless: { ...WRITTEN.otpless, k: 'B'.repeat(11) } };
      const res = await (
        await apiApp()
      )
        .browser()
        .set('cookie', signedSessionCookie(other))
        .get('/identity')
        .set('accept', 'application/json');
      expect(res.status).toBe(401);
      await settleWarnings();
      expect(noKey()).toHaveLength(1);
    } finally {
      await strategy.client.close();
    }
  });
});
