import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Passport } from 'passport';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { MagicLinkStrategy } from '../../src/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import type { Harness, HarnessOptions } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { settleWarnings, watchWarnings } from '../helpers/warnings.js';

// One run of the callback (src/strategy/attempt.ts): each path a request can take, and the
// Passport verb or page it ends in, as the browser and a custom callback see them.

const { harness, emulator } = useSharedEmulator();
const warnings = watchWarnings();

type Agent = ReturnType<Harness['browser']>;

/**
 * A harness whose `/check` route runs the strategy with a custom callback, so the failure's
 * code, message and status reach the test as JSON (a user's app sees them the same way).
 */
async function app(options: HarnessOptions = {}): Promise<Harness> {
  const h: Harness = await harness({
    ...options,
    routes: (a) => {
      const run: express.RequestHandler = (req, res, next) => {
        h.passport.authenticate(h.strategy.name, (err: unknown, user: unknown, info: unknown, status: number) => {
          if (err) return next(err);
          if (!user) return void res.status(status).json({ info });
          req.logIn(user as Express.User, (e) => (e ? next(e) : res.json({ user })));
        })(req, res, next);
      };
      a.get('/check', run);
      a.post('/check', express.urlencoded({ extended: false }), run);
    },
  });
  return h;
}

let counter = 0;
const address = (): string => `attempt-${(counter += 1)}@example.com`;

/** Sends a link in `browser`; returns the link's callback path moved onto `/check`. */
async function sent(h: Harness, browser: Agent, email: string): Promise<string> {
  const res = await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(res.status).toBe(200);
  return (await clickLink(lastLinkTo(h.emulator, email))).replace('/auth/callback', '/check');
}

const params = (path: string): URLSearchParams => new URLSearchParams(path.slice(path.indexOf('?') + 1));

describe('what the callback was given', () => {
  it('refuses unusable input with 400 INVALID_CODE and a message for people, without a login', async () => {
    const h = await app();
    const browser = h.browser();
    const res = await browser.get('/check?code=a&code=b');
    expect(res.status).toBe(400);
    expect(res.body.info.code).toBe('INVALID_CODE');
    expect(res.body.info.message).toMatch(/incomplete or not valid/);
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('publishes each refusal on the loginRefused channel, with its code and status', async () => {
    const h = await app();
    const seen: unknown[] = [];
    const listen = (message: unknown) => void seen.push(message);
    diagnostics.subscribe('passport-otpless:login:refused', listen);
    try {
      await h.browser().get('/check?code=');
    } finally {
      diagnostics.unsubscribe('passport-otpless:login:refused', listen);
    }
    expect(seen).toEqual([{ code: 'INVALID_CODE', status: 400 }]);
  });

  it('answers the refusal in the language the browser asks for', async () => {
    const h = await app();
    const res = await h.browser().get('/check?code=').set('accept-language', 'es');
    expect(res.status).toBe(400);
    expect(res.body.info.code).toBe('INVALID_CODE');
    expect(res.body.info.message).toMatch(/^Este enlace de inicio de sesión está incompleto o no es válido\./);
  });
});

describe('a code from the link, in the browser that asked', () => {
  it('signs in, and the send it belonged to serves no second login', async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    const browser = h.browser();
    const email = address();
    const callback = await sent(h, browser, email);
    const first = await browser.get(callback);
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe(email);
    const again = await browser.get(callback);
    expect(again.status).toBe(403);
    expect(again.body.info.code).toBe('WRONG_BROWSER');
  });

  it('refuses a code the service rejects with 401 CODE_REJECTED, and the send is spent all the same', async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    const browser = h.browser();
    const callback = await sent(h, browser, address());
    const flow = params(callback).get('flow');
    expect(flow).toBeTruthy();
    const wrong = await browser.get(`/check?code=not-the-code&flow=${flow}`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.info.code).toBe('CODE_REJECTED');
    // Taken before verifying: the right code of the same send no longer finds it here.
    const right = await browser.get(callback);
    expect(right.status).toBe(403);
    expect(right.body.info.code).toBe('WRONG_BROWSER');
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('refuses a code whose service request id names no send of this browser (403 WRONG_BROWSER)', async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    h.emulator.setQuirks({ requestIdMismatch: true });
    const browser = h.browser();
    const res = await browser.get(await sent(h, browser, address()));
    expect(res.status).toBe(403);
    expect(res.body.info.code).toBe('WRONG_BROWSER');
  });

  it('accepts that request id with requestIdsDiffer, and tells the operator once', async () => {
    const h = await app({ strategy: { crossDevice: 'refuse', requestIdsDiffer: true } });
    h.emulator.setQuirks({ requestIdMismatch: true });
    const browser = h.browser();
    warnings.length = 0;
    const res = await browser.get(await sent(h, browser, address()));
    expect(res.status).toBe(200);
    await settleWarnings();
    expect(warnings.map((w) => w.code)).toEqual(['OTPLESS_REQUEST_ID_DIFFERS']);
  });

  it('fails the login with USER_REFUSED and the info verify gave when verify returns no user', async () => {
    const h = await app({
      verify: ((_profile: unknown, done: (err: unknown, user: false, info: object) => void) =>
        done(null, false, { message: 'This account is closed.', reason: 'closed' })) as never,
    });
    const browser = h.browser();
    const res = await browser.get(await sent(h, browser, address()));
    expect(res.status).toBe(401);
    expect(res.body.info).toEqual({ code: 'USER_REFUSED', message: 'This account is closed.', reason: 'closed' });
    expect((await browser.get('/me')).status).toBe(401);
  });
});

describe('a code from the link, in another browser', () => {
  it("crossDevice 'refuse': 403 WRONG_BROWSER, and the code stays usable in the browser that asked", async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    const asking = h.browser();
    const callback = await sent(h, asking, address());
    const other = await h.browser().get(callback);
    expect(other.status).toBe(403);
    expect(other.body.info.code).toBe('WRONG_BROWSER');
    expect((await asking.get(callback)).status).toBe(200);
  });

  it("crossDevice 'accept': the other browser signs in; a wrong code there is 401 CODE_REJECTED", async () => {
    const h = await app({ strategy: { crossDevice: 'accept' } });
    const callback = await sent(h, h.browser(), address());
    const wrong = await h.browser().get(`/check?code=not-the-code&flow=${params(callback).get('flow')}`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.info.code).toBe('CODE_REJECTED');
    const other = h.browser();
    expect((await other.get(callback)).status).toBe(200);
    expect((await other.get('/me')).status).toBe(200);
  });

  it("crossDevice 'handoff': the other browser gets the approval page, the asking one waits (409 FLOW_PENDING)", async () => {
    const h = await app();
    const asking = h.browser();
    const callback = await sent(h, asking, address());
    const phone = await h.browser().get(callback.replace('/check', '/auth/callback'));
    expect(phone.status).toBe(200);
    expect(phone.headers['content-type']).toMatch(/^text\/html/);
    const waiting = await asking.get('/check');
    expect(waiting.status).toBe(409);
    expect(waiting.body.info.code).toBe('FLOW_PENDING');
    expect((await asking.get('/me')).status).toBe(401);
  });
});

describe('the asking browser back with no code', () => {
  it('with no send of its own: 400 INVALID_CODE', async () => {
    const h = await app();
    const res = await h.browser().get('/check');
    expect(res.status).toBe(400);
    expect(res.body.info.code).toBe('INVALID_CODE');
  });

  it("without the handoff (crossDevice 'accept'): 400 INVALID_CODE even with a send waiting", async () => {
    const h = await app({ strategy: { crossDevice: 'accept' } });
    const browser = h.browser();
    await sent(h, browser, address());
    const res = await browser.get('/check');
    expect(res.status).toBe(400);
    expect(res.body.info.code).toBe('INVALID_CODE');
  });
});

describe('a link that came back without its flow id (the service dropped the query)', () => {
  it('binds the code by the service request id in the browser that asked, and warns the operator', async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    h.emulator.setQuirks({ stripRedirectQuery: true });
    const browser = h.browser();
    const callback = await sent(h, browser, address());
    expect(params(callback).has('flow')).toBe(false);
    warnings.length = 0;
    const res = await browser.get(callback);
    expect(res.status).toBe(200);
    await settleWarnings();
    expect(warnings.map((w) => w.code)).toContain('OTPLESS_FLOW_PARAM_MISSING');
  });

  it('refuses it before verifying in a browser with no send (403 WRONG_BROWSER), so the code stays usable', async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    h.emulator.setQuirks({ stripRedirectQuery: true });
    const asking = h.browser();
    const callback = await sent(h, asking, address());
    const other = await h.browser().get(callback);
    expect(other.status).toBe(403);
    expect(other.body.info.code).toBe('WRONG_BROWSER');
    expect((await asking.get(callback)).status).toBe(200);
  });

  it('refuses a code the service rejects with 401 CODE_REJECTED', async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    const browser = h.browser();
    await sent(h, browser, address());
    const res = await browser.get('/check?code=not-the-code');
    expect(res.status).toBe(401);
    expect(res.body.info.code).toBe('CODE_REJECTED');
  });
});

describe('confirm mode', () => {
  const confirm: Partial<MagicLinkStrategyOptions> = { confirm: true, crossDevice: 'refuse' };

  it('shows a page on GET and HEAD without spending the code; the same-site POST signs in', async () => {
    const h = await app({ strategy: confirm });
    const browser = h.browser();
    const callback = await sent(h, browser, address());
    const page = await browser.get(callback.replace('/check', '/auth/callback'));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<form');
    expect((await browser.head(callback.replace('/check', '/auth/callback'))).status).toBe(200);
    const code = params(callback).get('code')!;
    const flow = params(callback).get('flow')!;
    const posted = await browser.post('/check').type('form').send({ code, flow });
    expect(posted.status).toBe(200);
    expect((await browser.get('/me')).status).toBe(200);
  });

  it('refuses a POST from another site with 403 CROSS_SITE, the code unspent', async () => {
    const h = await app({ strategy: confirm });
    const browser = h.browser();
    const callback = await sent(h, browser, address());
    const code = params(callback).get('code')!;
    const flow = params(callback).get('flow')!;
    // The attacker's page posts in the person's own browser (its cookie goes along), from its own origin.
    const forged = await browser.post('/check').set('origin', 'https://evil.example').type('form').send({ code, flow });
    expect(forged.status).toBe(403);
    expect(forged.body.info.code).toBe('CROSS_SITE');
    expect((await browser.post('/check').type('form').send({ code, flow })).status).toBe(200);
  });
});

describe('a frontend-SDK token', () => {
  it('signs in once: the same token again is 401 TOKEN_REJECTED', async () => {
    const h = await app();
    const email = address();
    const token = h.emulator.issueToken({ email });
    const first = await h.browser().post('/check').type('form').send({ token });
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe(email);
    const replay = await h.browser().post('/check').type('form').send({ token });
    expect(replay.status).toBe(401);
    expect(replay.body.info.code).toBe('TOKEN_REJECTED');
  });

  it('refuses a token posted from another site with 403 CROSS_SITE', async () => {
    const h = await app();
    const token = h.emulator.issueToken({ email: address() });
    const res = await supertest(h.server)
      .post('/check')
      .set('origin', 'https://evil.example')
      .type('form')
      .send({ token });
    expect(res.status).toBe(403);
    expect(res.body.info.code).toBe('CROSS_SITE');
  });

  it('refuses a token the service does not know with 401 TOKEN_REJECTED', async () => {
    const h = await app();
    const res = await h.browser().post('/check').type('form').send({ token: 'made-up-token' });
    expect(res.status).toBe(401);
    expect(res.body.info.code).toBe('TOKEN_REJECTED');
  });

  it('answers a service failure as an error, never as a refusal or a login', async () => {
    const h = await app();
    const token = h.emulator.issueToken({ email: address() });
    h.emulator.fault({ path: '/auth/v1/validate/token', status: 500, times: 1 });
    const browser = h.browser();
    const res = await browser.post('/check').type('form').send({ token });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('SERVICE_ERROR');
    expect(JSON.stringify(res.body)).not.toContain(CLIENT.clientSecret);
    expect((await browser.get('/me')).status).toBe(401);
  });
});

describe('a frontend-SDK token from a clock ahead', () => {
  // An emulator of its own: its clock is moved forward, and the others' tests keep theirs.
  const ahead = useSharedEmulator();

  it('refuses a token authenticated at a time in the future (beyond the skew) with 401 TOKEN_REJECTED', async () => {
    const h = await ahead.harness({
      routes: (a) => {
        a.post('/check', express.urlencoded({ extended: false }), (req, res, next) => {
          h.passport.authenticate(h.strategy.name, (err: unknown, user: unknown, info: unknown, status: number) => {
            if (err) return next(err);
            res.status(user ? 200 : status).json({ info });
          })(req, res, next);
        });
      },
    });
    // The emulator's clock runs an hour ahead: its token was "authenticated" an hour from now.
    h.emulator.advanceTime(3_600_000);
    const token = h.emulator.issueToken({ email: address() });
    const res = await h.browser().post('/check').type('form').send({ token });
    expect(res.status).toBe(401);
    expect(res.body.info.code).toBe('TOKEN_REJECTED');
  });
});

describe('an app without a session', () => {
  it("answers a link's code with 500 MISSING_SESSION, which names what to add", async () => {
    const a = express();
    const server = a.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const strategy = new MagicLinkStrategy(
      {
        ...CLIENT,
        authUrl: emulator().authUrl,
        userAuthUrl: emulator().userAuthUrl,
        callbackUrl: `${url}/auth/callback`,
        limits: false,
      },
      async (profile) => ({ id: profile.id }),
    );
    const passport = new Passport();
    passport.use(strategy);
    a.get('/auth/callback', passport.authenticate(strategy.name, { session: false }));
    a.use(
      (
        err: { status?: number; code?: string; message: string },
        _q: express.Request,
        res: express.Response,
        _n: express.NextFunction,
      ) => {
        res.status(err.status ?? 500).json({ code: err.code, message: err.message });
      },
    );
    try {
      const res = await supertest(server).get('/auth/callback?code=some-code');
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('MISSING_SESSION');
      expect(res.body.message).toContain('express-session');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await strategy.client.close();
    }
  });
});
