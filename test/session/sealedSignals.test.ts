import { once } from 'node:events';
import { inspect } from 'node:util';
import type { AddressInfo } from 'node:net';
import cookieSession from 'cookie-session';
import express from 'express';
import passportPkg from 'passport';
import { afterEach, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, readLoginRecord, requireLowRisk, sessionCompat } from '../../src/index.js';
import { SIGNAL_NAMES } from '../../src/risk/policy.js';
import type { RiskAuditEvent, SessionCompatOptions } from '../../src/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { linkTo, openLink } from '../examples/helpers/inbox.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';
import { CLIENT } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// With cookie-session the login record's signals must not be readable in the cookie (base64
// JSON would tell someone who was challenged which signal to hide before the next try). A cookie keeps the verdict and its time in the clear and the signals sealed
// (AES-256-GCM) under a key derived from the app's secret; the guards open them to judge each
// route under its own policy.
const { emulator } = useSharedEmulator();
const VPN_METHODS = ['timezoneMismatch', 'publicVPN', 'auxiliaryMobile', 'osMismatch'];
const COOKIE_KEY = 'a-shared-cookie-signing-key-0123';

interface CookieApp {
  url: string;
  events: RiskAuditEvent[];
  close(): Promise<void>;
}
const open: CookieApp[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
});

/** A real app on cookie-session, its options and sessionCompat's given. */
async function cookieApp(
  options: { cookie?: Partial<CookieSessionInterfaces.CookieSessionOptions>; compat?: SessionCompatOptions } = {},
): Promise<CookieApp> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const passport = new passportPkg.Passport();
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: emulator().authUrl,
      userAuthUrl: emulator().userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      enrich: ['secureInfo'],
    },
    async (profile) => ({ id: profile.id }),
  );
  passport.use(strategy);
  const events: RiskAuditEvent[] = [];
  const audit = (event: RiskAuditEvent) => events.push(event);

  app.use(cookieSession({ name: 'sess', keys: [COOKIE_KEY], ...options.cookie }));
  app.use(sessionCompat(options.compat));
  app.use(passport.session());
  app.post('/auth/magic-link', express.json(), strategy.send());
  app.get('/auth/callback', passport.authenticate(strategy.name, { successRedirect: '/me' }));
  app.get('/me', (req, res) => res.json({ user: req.user ?? null, record: readLoginRecord(req) ?? null }));
  app.get('/guarded', requireLowRisk({ audit }), (_req, res) => res.json({ ok: true }));
  app.get('/strict', requireLowRisk({ audit, policy: { vpn: 'block' } }), (_req, res) => res.json({ ok: true }));
  app.get('/lenient', requireLowRisk({ audit, policy: { vpn: 'allow' } }), (_req, res) => res.json({ ok: true }));
  app.use(
    (
      err: Error & { status?: number; code?: string },
      _q: express.Request,
      res: express.Response,
      _n: express.NextFunction,
    ) => res.status(err.status ?? 500).json({ error: { code: err.code, message: err.message } }),
  );
  const created = {
    url,
    events,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await strategy.client.close();
    },
  };
  open.push(created);
  return created;
}

/** send -> link (as `risk`) -> callback in `browser`; returns the callback's answer. */
async function logIn(browser: Browser, email: string, risk: string) {
  expect((await browser.postJson('/auth/magic-link', { email })).status).toBe(200);
  return openLink(browser, linkTo(emulator(), email), risk);
}

/** The session cookie as anyone holding it can read it. */
function decodedCookie(browser: Browser): { otpless?: { risk?: Record<string, unknown> } } & Record<string, unknown> {
  const value = browser.cookies().sess;
  expect(value).toBeDefined();
  return JSON.parse(Buffer.from(value!, 'base64').toString('utf8')) as never;
}

const json = { accept: 'application/json' };

describe('risk signals in a cookie session', () => {
  it('the cookie holds the verdict and its time, and nothing that names or encodes a signal', async () => {
    const app = await cookieApp();
    const browser = new Browser(app.url);
    expect((await logIn(browser, 'sealed@example.com', 'vpn')).status).toBe(302);

    const cookie = decodedCookie(browser);
    const risk = cookie.otpless!.risk!;
    expect(Object.keys(risk).sort()).toEqual(['action', 'at', 's']);
    expect(risk.action).toBe('challenge');
    expect(risk.s).toMatch(/^[\w-]{16}\.[\w-]{22}\.[\w-]+$/);

    // What the guards see (opened with the app's secret) ...
    const record = (await browser.get('/me', json)).json<{ record: { risk: { signals: { f: string; m: string } } } }>()
      .record;
    expect(record.risk.signals.m).toContain('t');
    // ... is in the cookie in no readable form: no signal names, no compact flags, no methods.
    const readable = JSON.stringify({ ...cookie, otpless: { ...cookie.otpless, risk: { ...risk, s: '' } } });
    for (const word of [...SIGNAL_NAMES, ...VPN_METHODS, 'signals', record.risk.signals.f, '"f"', '"m"']) {
      expect(readable, word).not.toContain(word);
    }
    expect(Buffer.from(String(risk.s).split('.')[2]!, 'base64url').toString('latin1')).not.toContain(
      record.risk.signals.f,
    );
  });

  it('the guards still judge each route under its own policy', async () => {
    const app = await cookieApp();
    const browser = new Browser(app.url);
    await logIn(browser, 'routes@example.com', 'vpn');
    expect((await browser.get('/guarded', json)).json()).toEqual({ error: { code: 'RISK_CHALLENGE' } });
    expect((await browser.get('/strict', json)).json()).toEqual({ error: { code: 'RISK_BLOCKED' } });
    expect((await browser.get('/lenient', json)).status).toBe(200);
    expect(app.events.at(-3)?.reasons).toContainEqual(expect.objectContaining({ signal: 'vpn' }));
  });

  it('a secret can be rotated (newest first); a cookie no secret opens is judged malformed (fail closed)', async () => {
    const first = await cookieApp({ compat: { secret: 'first-signal-secret-0123456789' } });
    const rotated = await cookieApp({
      compat: { secret: ['second-signal-secret-012345678', 'first-signal-secret-0123456789'] },
    });
    const dropped = await cookieApp({ compat: { secret: 'second-signal-secret-012345678' } });
    // One browser: it sends the cookie to every app on 127.0.0.1, whatever the port.
    const browser = new Browser(first.url);
    await logIn(browser, 'rotate@example.com', 'clean');
    expect((await browser.get(`${first.url}/guarded`, json)).status).toBe(200);
    expect((await browser.get(`${rotated.url}/guarded`, json)).status).toBe(200);

    const refused = await browser.get(`${dropped.url}/guarded`, json);
    expect(refused.json()).toEqual({ error: { code: 'RISK_BLOCKED' } });
    expect(dropped.events.at(-1)?.reasons).toContainEqual(expect.objectContaining({ signal: 'malformed' }));
    // readLoginRecord() gives the app the same: signals marked malformed, never none at all.
    const record = (await browser.get(`${dropped.url}/me`, json)).json<{ record: { risk: unknown } }>().record;
    expect(record.risk).toMatchObject({ signals: { v: 1, f: '!' }, action: 'allow' });
  });

  it('by default the key comes from cookie-session’s keys, and follows their rotation', async () => {
    const old = await cookieApp({ cookie: { keys: ['old-cookie-key-0123456789abcdef'] } });
    const rotated = await cookieApp({
      cookie: { keys: ['new-cookie-key-0123456789abcdef', 'old-cookie-key-0123456789abcdef'] },
    });
    const other = await cookieApp({
      compat: { secret: 'unrelated-signal-secret-0123456' },
      cookie: { keys: ['old-cookie-key-0123456789abcdef'] },
    });
    const browser = new Browser(old.url);
    await logIn(browser, 'derived@example.com', 'clean');
    // A different secret for the signals than the one they were sealed with opens nothing.
    expect((await browser.get(`${other.url}/guarded`, json)).status).toBe(403);
    // (Last: cookie-session re-signs the cookie with the newest key, which `other` lacks.)
    expect((await browser.get(`${rotated.url}/guarded`, json)).status).toBe(200);
  });

  it('without any secret (an unsigned cookie) the login fails before anyone is logged in', async () => {
    const app = await cookieApp({ cookie: { keys: undefined, signed: false } });
    const browser = new Browser(app.url);
    const callback = await logIn(browser, 'nosecret@example.com', 'clean');
    expect(callback.status).toBe(500);
    expect(callback.json()).toMatchObject({ error: { code: 'MISSING_SESSION_SECRET' } });
    // The message names every way out: the Fastify plugin, cookie-session's keys, a secret, a server-side session.
    const { message } = callback.json<{ error: { message: string } }>().error;
    expect(message).toContain('keeps the risk signals of a login encrypted in a cookie session, and found no secret');
    expect(message).toContain('otplessFastify({ secret: process.env.SIGNALS_SECRET })');
    expect(message).toContain(
      'cookieSession({ keys: [...] }) (not signed: false) followed by app.use(sessionCompat())',
    );
    expect(message).toContain('sessionCompat({ secret: process.env.SESSION_SECRET })');
    expect(message).toContain('use a server-side session (express-session)');
    expect((await browser.get('/me', json)).json()).toMatchObject({ user: null, record: null });
  });

  it.each([[{ secret: '' }], [{ secret: [] }], [{ secret: ['ok-secret', 42] }], [{ secret: 42 }], ['x']])(
    'sessionCompat(%j) throws a TypeError naming the option',
    (options) => {
      expect(() => sessionCompat(options as never)).toThrow(TypeError);
      expect(() => sessionCompat(options as never)).toThrow(/sessionCompat\(\): options/);
    },
  );
});

describe('the cookie-session example (the demo app)', () => {
  it('keeps the reasons of a verdict out of its cookie unless it shows them (demo mode)', async () => {
    // The example imports 'passport-otpless' (dist/): build it first if src/ changed.
    await ensureBuilt();
    const { startApp } = await import('../../examples/express-cookie-session/app.mjs');
    for (const demo of [false, true]) {
      const app = await startApp({
        otpless: { ...CLIENT, authUrl: emulator().authUrl, userAuthUrl: emulator().userAuthUrl },
        sessionKeys: ['a-test-session-key-0123456789'],
        ...(demo ? { devInboxUrl: `${emulator().authUrl}/` } : {}),
        log: () => undefined,
      });
      try {
        const browser = new Browser(app.url);
        const contact = `kept-${String(demo)}@example.com`;
        expect((await browser.postForm('/auth/magic-link', { email: contact })).status).toBe(303);
        expect((await openLink(browser, linkTo(emulator(), contact), 'vpn')).status).toBe(303);
        const cookie = Buffer.from(browser.cookies()['acme.session']!, 'base64').toString('utf8');
        expect(cookie).toContain('"action":"challenge"');
        if (demo) expect(cookie).toContain('"signal":"vpn"');
        else for (const word of ['reasons', '"signal"', ...VPN_METHODS]) expect(cookie).not.toContain(word);
      } finally {
        await app.close();
      }
    }
  }, 60_000);
});

describe('the secret on the request, where sessionCompat() leaves it', () => {
  it('is not shown when the request is logged (util.inspect), and a second sessionCompat() does not fail', async () => {
    const SECRET = 'a-signal-secret-never-logged-0123';
    const app = express();
    app.use(cookieSession({ name: 'sess', keys: [COOKIE_KEY] }));
    // A router of its own may add sessionCompat() again: the second must not fail.
    app.use(sessionCompat({ secret: 'an-older-secret-0123456789abcd' }));
    app.use(sessionCompat({ secret: SECRET }));
    app.get('/log', (req, res) => res.json({ logged: inspect(req, { depth: 4 }) }));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/log`);
      expect(res.status).toBe(200);
      const { logged } = (await res.json()) as { logged: string };
      expect(logged).toContain('IncomingMessage');
      expect(logged).not.toContain(SECRET);
      expect(logged).not.toContain('sealSecrets');
    } finally {
      server.close();
    }
  });
});
