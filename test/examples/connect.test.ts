import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import bodyParser from 'body-parser';
import connect from 'connect';
import type { NextHandleFunction } from 'connect';
import cookieSession from 'cookie-session';
import { Passport } from 'passport';
import { MagicLinkStrategy, sessionCompat } from 'passport-otpless';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/connect/app.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ENDPOINTS } from '../../src/client/index.js';
import { Browser } from './helpers/browser.js';
import { ensureBuilt } from './helpers/ensureBuild.js';
import { linkTo, openLink } from './helpers/inbox.js';

// A bare Connect 3 server (no Express): the example in examples/connect, and what Passport's
// redirect options do there. Real sockets, the emulator, cookie-session.

const CLIENT = { clientId: 'connect-client', clientSecret: 'connect-secret-value' };
const JSON_ACCEPT = { accept: 'application/json' };

let emulator: Emulator;
beforeAll(async () => {
  await ensureBuilt();
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
}, 180_000);
afterAll(() => emulator?.close());

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  emulator.clearFaults();
  await close?.();
  close = undefined;
});

async function serve(
  build: (callbackUrl: string) => { app: (req: IncomingMessage, res: ServerResponse) => void; close(): Promise<void> },
): Promise<Browser> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const built = build(`${url}/auth/callback`);
  server.on('request', built.app);
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await built.close();
  };
  return new Browser(url);
}

const startExample = (): Promise<Browser> =>
  serve((callbackUrl) =>
    createApp({
      otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
      callbackUrl,
      sessionKeys: ['connect-example-session-key-0123456789'],
    }),
  );

describe('Connect example (examples/connect)', () => {
  it("sends, signs in through the mount's own 303 (Connect has no res.redirect), guards, and logs out", async () => {
    const browser = await startExample();
    const sent = await browser.postJson('/auth/magic-link', { email: 'connect@example.com' });
    expect(sent.status).toBe(200);
    expect(sent.json()).toMatchObject({ sent: [{ type: 'EMAIL' }], match: expect.any(String) });

    // Connect parses no query string: the strategy reads it from req.url.
    const callback = await openLink(browser, linkTo(emulator, 'connect@example.com'));
    expect(callback.status).toBe(303);
    expect(callback.location).toMatch(/\/me$/);
    expect(callback.headers.get('cache-control')).toBe('no-store');

    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ id: 'connect@example.com' });
    const payments = await browser.get('/payments', JSON_ACCEPT);
    expect(payments.status).toBe(200);
    expect(payments.json()).toEqual({ allowed: true });

    expect((await browser.postJson('/auth/logout', {})).json()).toEqual({ signedOut: true });
    expect((await browser.get('/me', JSON_ACCEPT)).status).toBe(401);
  });

  it('the guards answer on Connect: 401 before login, 403 for a VPN login', async () => {
    const browser = await startExample();
    const before = await browser.get('/payments', JSON_ACCEPT);
    expect(before.status).toBe(401);
    expect(before.json()).toEqual({ error: { code: 'UNAUTHENTICATED' } });

    await browser.postJson('/auth/magic-link', { email: 'vpn@example.com' });
    expect((await openLink(browser, linkTo(emulator, 'vpn@example.com'), 'vpn')).status).toBe(303);
    const payments = await browser.get('/payments', JSON_ACCEPT);
    expect(payments.status).toBe(403);
    expect(payments.json()).toEqual({ error: { code: expect.stringMatching(/^RISK_(BLOCKED|CHALLENGE)$/) } });
    // A browser gets a page, not JSON.
    expect((await browser.get('/payments')).text).toMatch(/^<!doctype html>/i);
  });

  it("bad input is a JSON 400; a service failure on the callback is the package's error page, 503", async () => {
    const browser = await startExample();
    const bad = await browser.postJson('/auth/magic-link', { email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'email' } });

    await browser.postJson('/auth/magic-link', { email: 'down@example.com' });
    emulator.fault({ path: ENDPOINTS.verifyCode.path, status: 503, times: 1 });
    const callback = await openLink(browser, linkTo(emulator, 'down@example.com'));
    expect(callback.status).toBe(503);
    expect(callback.text).toContain('Signing in is not possible right now.');
    expect(callback.text).toContain('SERVICE_UNAVAILABLE');
    expect(callback.text).not.toMatch(/ at .*\.[cm]?[jt]s:\d+/);
  });

  it("refusals reach a JSON client with the strategy's status and code", async () => {
    const browser = await startExample();
    const noCode = await browser.get('/auth/callback', JSON_ACCEPT);
    expect(noCode.status).toBe(400);
    expect(noCode.json()).toEqual({ error: { code: 'INVALID_CODE', message: expect.any(String) } });
  });

  it("the package's sign-in page, a form send without a body parser, and the waiting page work on Connect", async () => {
    const browser = await startExample();
    const signIn = await browser.get('/auth/sign-in');
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain('<form method="post" action="/auth/magic-link">');
    const sent = await browser.postForm('/auth/magic-link', { email: 'form@example.com' });
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/\/auth\/waiting$/);
    const waiting = await browser.get(sent.location!);
    expect(waiting.status).toBe(200);
    expect(waiting.text).toMatch(/<p class="number"[^>]*>\d{2}<\/p>/);
  });

  it('the approval page (a link opened in another browser) and status() work on Connect', async () => {
    const browser = await startExample();
    await browser.postJson('/auth/magic-link', { email: 'laptop@example.com' });
    const page = await openLink(browser.fresh(), linkTo(emulator, 'laptop@example.com'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approve sign-in on your computer?');
    expect((await browser.get('/auth/status', JSON_ACCEPT)).json()).toMatchObject({ status: 'pending' });
  });
});

describe("Passport and the strategy on a bare Connect server, with Passport's redirect options", () => {
  /** The Express way, on Connect: passport.authenticate with successRedirect and failureRedirect. */
  const withRedirectOptions = (callbackUrl: string) => {
    const strategy = new MagicLinkStrategy(
      { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl, callbackUrl },
      async (profile) => ({ id: profile.id }),
    );
    const passport = new Passport();
    passport.use(strategy);
    passport.serializeUser((user: Express.User, done) => done(null, user));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    const app = connect();
    app.use(cookieSession({ name: 'session', keys: ['connect-redirect-key-0123456789'] }) as NextHandleFunction);
    app.use(sessionCompat());
    app.use(passport.session() as NextHandleFunction);
    app.use('/auth/magic-link', bodyParser.json());
    app.use('/auth/magic-link', strategy.send());
    app.use(
      '/auth/callback',
      passport.authenticate('magic-link', { successRedirect: '/me', failureRedirect: '/' }) as NextHandleFunction,
    );
    app.use('/me', (req: IncomingMessage & { user?: unknown }, res: ServerResponse) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ user: req.user ?? null }));
    });
    return { app, close: () => strategy.client.close() };
  };

  it('successRedirect: refused at the first callback with a setup error naming what to do; nobody signed in', async () => {
    const browser = await serve(withRedirectOptions);
    await browser.postJson('/auth/magic-link', { email: 'redirect@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'redirect@example.com'));
    expect(callback.status).toBe(500);
    // Passport would call res.redirect after logging in: refused before the code is spent.
    expect(callback.text).toContain('Passport answers successRedirect and failureRedirect with res.redirect');
    expect(callback.text).toContain('req.logIn');
    expect(callback.text).not.toContain('res.redirect is not a function');
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: null });
  });

  it('failureRedirect: the same setup error', async () => {
    const browser = await serve(withRedirectOptions);
    const callback = await browser.get('/auth/callback');
    expect(callback.status).toBe(500);
    expect(callback.text).toContain('Passport answers successRedirect and failureRedirect with res.redirect');
  });
});
