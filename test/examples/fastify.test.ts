import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyExpress from '@fastify/express';
import fastifyFormbody from '@fastify/formbody';
import fastifyPassport, { Authenticator } from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';
import cookieSession from 'cookie-session';
import express from 'express';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { Passport } from 'passport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, otplessFastify, requireLowRisk, sessionCompat } from '../../src/index.js';
import type { CrossDeviceMode } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from './helpers/browser.js';
import { linkTo, openLink } from './helpers/inbox.js';

// Fastify 5, tried for real: a login through the emulator over real sockets, natively with
// @fastify/passport 4 + @fastify/secure-session 8 and otplessFastify() (what the native set-up
// adds to the conformance suite in test/hosts), then with the Express routes mounted in Fastify
// through @fastify/express.

const CLIENT = { clientId: 'fastify-client', clientSecret: 'fastify-secret-value' };
const JSON_ACCEPT = { accept: 'application/json' };

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(() => emulator?.close());

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A server on port 0 first (the strategy needs its callback URL), then a Fastify app on it. */
async function startFastify(
  setUp: (app: FastifyInstance, strategy: MagicLinkStrategy) => Promise<void>,
  crossDevice?: CrossDeviceMode,
): Promise<Browser> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: emulator.authUrl,
      userAuthUrl: emulator.userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      enrich: ['secureInfo'],
      ...(crossDevice ? { crossDevice } : {}),
    },
    async (profile) => ({ id: profile.id }),
  );
  const app = Fastify({
    serverFactory: (handler) => server.on('request', handler),
  });
  await setUp(app, strategy);
  await app.ready();
  close = async () => {
    server.closeAllConnections();
    await app.close();
    await strategy.client.close();
  };
  return new Browser(url);
}

/** @fastify/passport 4 and @fastify/secure-session 8 natively, with or without otplessFastify(). */
function nativeFastifyPassport(plugin: 'none' | 'no secret' | 'secret') {
  return async (app: FastifyInstance, strategy: MagicLinkStrategy): Promise<void> => {
    await app.register(fastifySecureSession, { key: Buffer.alloc(32, 7), cookie: { path: '/' } });
    if (plugin === 'secret') await app.register(otplessFastify({ secret: 'fastify-signals-secret-0123456789' }));
    if (plugin === 'no secret') await app.register(otplessFastify());
    await app.register(fastifyFormbody);
    await app.register(fastifyPassport.initialize());
    await app.register(fastifyPassport.secureSession());
    // No cast needed: MagicLinkStrategy fits @fastify/passport's strategy type.
    fastifyPassport.use('magic-link', strategy);
    fastifyPassport.registerUserSerializer(async (user) => user);
    fastifyPassport.registerUserDeserializer(async (user) => user);
    // Every answer of the package goes through reply.send: an app's onSend hook sees it.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('x-app-on-send', 'seen');
    });
    app.post('/auth/magic-link', strategy.send());
    app.get(
      '/auth/callback',
      { preValidation: fastifyPassport.authenticate('magic-link', { successRedirect: '/me' }) },
      async () => ({}),
    );
    app.get('/me', async (request) => ({ user: request.user ?? null }));
    app.get('/payments', { preHandler: requireLowRisk() }, async () => ({ allowed: true }));
  };
}

describe('Fastify 5 with @fastify/passport 4 and @fastify/secure-session 8, natively', () => {
  it('send() answers through reply.send: the onSend hooks run and the session cookie is written', async () => {
    const browser = await startFastify(nativeFastifyPassport('secret'));
    const sent = await browser.postJson('/auth/magic-link', { email: 'fastify@example.com' });
    expect(sent.status).toBe(200);
    expect(sent.json()).toMatchObject({ sent: [{ type: 'EMAIL' }] });
    expect(sent.headers.get('x-app-on-send')).toBe('seen');
    expect(sent.headers.get('set-cookie')).toMatch(/^session=/);
  });

  it('signs in on the asking browser, with no-store headers, and the guard reads the sealed signals', async () => {
    const browser = await startFastify(nativeFastifyPassport('secret'));
    await browser.postJson('/auth/magic-link', { email: 'handoff@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'handoff@example.com'));
    expect(callback.status).toBe(302);
    expect(callback.headers.get('cache-control')).toBe('no-store');
    expect(callback.headers.get('x-app-on-send')).toBe('seen');
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: { id: 'handoff@example.com' } });
    expect((await browser.get('/payments', JSON_ACCEPT)).json()).toEqual({ allowed: true });
    // The signals are sealed: the cookie (decrypted or not) never names them in the clear.
    expect(JSON.stringify(browser.cookies())).not.toContain('suspectScore');
  });

  it('without otplessFastify(): the callback is a 500 setup error naming the plugin, nobody signed in', async () => {
    const browser = await startFastify(nativeFastifyPassport('none'));
    await browser.postJson('/auth/magic-link', { email: 'noplugin@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'noplugin@example.com'));
    expect(callback.status).toBe(500);
    expect(callback.json()).toMatchObject({
      code: 'MISSING_RESPONSE',
      message: expect.stringContaining('otplessFastify()'),
    });
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: null });
  });

  it("with crossDevice 'accept' and a secret: the link signs in anywhere, signals sealed", async () => {
    const browser = await startFastify(nativeFastifyPassport('secret'), 'accept');
    await browser.postJson('/auth/magic-link', { email: 'accept@example.com' });
    const other = browser.fresh();
    const callback = await openLink(other, linkTo(emulator, 'accept@example.com'));
    expect(callback.status).toBe(302);
    expect(callback.headers.get('cache-control')).toBe('no-store');
    expect((await other.get('/me', JSON_ACCEPT)).json()).toEqual({ user: { id: 'accept@example.com' } });
    expect((await other.get('/payments', JSON_ACCEPT)).json()).toEqual({ allowed: true });
  });

  it('with no secret for the cookie session: the login fails closed, naming otplessFastify({ secret })', async () => {
    const browser = await startFastify(nativeFastifyPassport('no secret'));
    await browser.postJson('/auth/magic-link', { email: 'nosecret@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'nosecret@example.com'));
    expect(callback.status).toBe(500);
    expect(callback.json()).toMatchObject({
      code: 'MISSING_SESSION_SECRET',
      message: expect.stringContaining('otplessFastify({ secret'),
    });
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: null });
  });
});

describe('@fastify/passport keeping the session on login (clearSessionOnLogin: false)', () => {
  /** An app that remembers where the visitor wanted to go, as apps do, from a query parameter. */
  async function keepingSession(app: FastifyInstance, strategy: MagicLinkStrategy): Promise<void> {
    const passport = new Authenticator({ clearSessionOnLogin: false });
    await app.register(fastifySecureSession, { key: Buffer.alloc(32, 9), cookie: { path: '/' } });
    await app.register(otplessFastify({ secret: 'fastify-signals-secret-0123456789' }));
    await app.register(passport.initialize());
    await app.register(passport.secureSession());
    passport.use('magic-link', strategy);
    passport.registerUserSerializer(async (user) => user);
    passport.registerUserDeserializer(async (user) => user);
    app.get('/wants', async (request) => {
      request.session.set('returnTo' as never, (request.query as { next: string }).next as never);
      return { ok: true };
    });
    app.post('/auth/magic-link', strategy.send());
    app.get(
      '/auth/callback',
      { preValidation: passport.authenticate('magic-link', { successReturnToOrRedirect: '/me' }) },
      async () => ({}),
    );
    app.get('/me', async (request) => ({ user: request.user ?? null }));
  }

  it('an unsafe returnTo kept in the session is taken out at login (no open redirect)', async () => {
    const browser = await startFastify(keepingSession);
    await browser.get('/wants?next=//evil.example/phish', JSON_ACCEPT);
    await browser.postJson('/auth/magic-link', { email: 'keep@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'keep@example.com'));
    expect(callback.status).toBe(302);
    expect(callback.location).toBe(`${new URL(callback.location!).origin}/me`);
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: { id: 'keep@example.com' } });
  });

  it('a path on this site is kept and followed', async () => {
    const browser = await startFastify(keepingSession);
    await browser.get('/wants?next=/orders/7', JSON_ACCEPT);
    await browser.postJson('/auth/magic-link', { email: 'keep2@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'keep2@example.com'));
    expect(callback.status).toBe(302);
    expect(new URL(callback.location!).pathname).toBe('/orders/7');
  });
});

describe('Fastify 5 with the Express routes mounted through @fastify/express', () => {
  /** The login routes as an Express router (cookie-session, passport), inside Fastify. */
  async function expressInFastify(app: FastifyInstance, strategy: MagicLinkStrategy): Promise<void> {
    await app.register(fastifyExpress);
    const passport = new Passport();
    passport.use(strategy);
    passport.serializeUser((user: Express.User, done) => done(null, user));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    const auth = express.Router();
    auth.use(cookieSession({ name: 'session', keys: ['fastify-express-session-key-0123456789'] }));
    auth.use(sessionCompat());
    auth.use(passport.session());
    auth.post('/auth/magic-link', express.json(), strategy.send());
    auth.get('/auth/callback', passport.authenticate('magic-link', { successRedirect: '/me' }));
    auth.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
    auth.get('/payments', requireLowRisk(), (req, res) => void res.json({ risk: req.risk?.action }));
    app.use(auth);
    // Fastify's own routes live beside them.
    app.get('/health', async () => ({ ok: true }));
  }

  it('logs in (bound to the asking browser), passes the risk guard, and serves Fastify routes beside it', async () => {
    const browser = await startFastify(expressInFastify);
    const sent = await browser.postJson('/auth/magic-link', { email: 'mounted@example.com' });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('set-cookie')).toMatch(/^session=/);
    const callback = await openLink(browser, linkTo(emulator, 'mounted@example.com'));
    expect(callback.status).toBe(302);
    expect(callback.location).toMatch(/\/me$/);
    expect(callback.headers.get('cache-control')).toBe('no-store');
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: { id: 'mounted@example.com' } });
    expect((await browser.get('/payments', JSON_ACCEPT)).json()).toEqual({ risk: 'allow' });
    expect((await browser.get('/health', JSON_ACCEPT)).json()).toEqual({ ok: true });
  });

  it('keeps the binding: the link opened in another browser gets the approval page, not a login', async () => {
    const browser = await startFastify(expressInFastify);
    await browser.postJson('/auth/magic-link', { email: 'phone@example.com' });
    const phone = browser.fresh();
    const page = await openLink(phone, linkTo(emulator, 'phone@example.com'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approve sign-in on your computer?');
    expect((await phone.get('/me', JSON_ACCEPT)).json()).toEqual({ user: null });
  });
});
