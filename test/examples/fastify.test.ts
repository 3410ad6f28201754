import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyExpress from '@fastify/express';
import fastifyFormbody from '@fastify/formbody';
import fastifyPassport from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';
import cookieSession from 'cookie-session';
import express from 'express';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { Passport } from 'passport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, requireLowRisk, sessionCompat } from '../../src/index.js';
import type { CrossDeviceMode } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from './helpers/browser.js';
import { linkTo, openLink } from './helpers/inbox.js';

// What works with Fastify 5 today, tried for real: a login through the emulator over real
// sockets, first with @fastify/passport 4 + @fastify/secure-session 8 (Fastify's own Passport),
// then with the Express routes mounted in Fastify through @fastify/express. The README's
// Fastify section states these results.

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

/** @fastify/passport 4 and @fastify/secure-session 8, wired as their READMEs say. */
async function nativeFastifyPassport(app: FastifyInstance, strategy: MagicLinkStrategy): Promise<void> {
  await app.register(fastifySecureSession, { key: Buffer.alloc(32, 7), cookie: { path: '/' } });
  await app.register(fastifyFormbody);
  await app.register(fastifyPassport.initialize());
  await app.register(fastifyPassport.secureSession());
  // No cast needed: MagicLinkStrategy fits @fastify/passport's strategy type.
  fastifyPassport.use('magic-link', strategy);
  fastifyPassport.registerUserSerializer(async (user) => user);
  fastifyPassport.registerUserDeserializer(async (user) => user);

  const send = strategy.send();
  // send() is Node middleware: it answers on the raw response itself.
  app.post('/auth/magic-link', (request, reply) => {
    reply.hijack();
    send(request as never, reply.raw, (err) => reply.raw.destroy(err as Error));
  });
  app.get(
    '/auth/callback',
    { preValidation: fastifyPassport.authenticate('magic-link', { successRedirect: '/me' }) },
    async () => ({}),
  );
  app.get('/me', async (request) => ({ user: request.user ?? null }));
  const guard = requireLowRisk();
  app.get('/payments', {
    preHandler: (request, reply, done) => guard(request as never, reply.raw, (err) => done(err as Error)),
    handler: async () => ({ allowed: true }),
  });
}

describe('Fastify 5 with @fastify/passport 4 and @fastify/secure-session 8', () => {
  it('send() answers, but the pending send never reaches the session cookie', async () => {
    const browser = await startFastify(nativeFastifyPassport);
    const sent = await browser.postJson('/auth/magic-link', { email: 'fastify@example.com' });
    expect(sent.status).toBe(200);
    expect(sent.json()).toMatchObject({ sent: [{ type: 'EMAIL' }] });
    // secure-session writes its cookie in Fastify's onSend hook, which a raw answer skips.
    expect(sent.headers.get('set-cookie')).toBeNull();
  });

  it("so the asking browser's own link fails: 500 MISSING_RESPONSE (default crossDevice 'handoff')", async () => {
    const browser = await startFastify(nativeFastifyPassport);
    await browser.postJson('/auth/magic-link', { email: 'handoff@example.com' });
    // With no send in its session, the browser looks like another device, whose approval
    // page needs req.res: a Fastify request has none.
    const callback = await openLink(browser, linkTo(emulator, 'handoff@example.com'));
    expect(callback.status).toBe(500);
    expect(callback.json()).toMatchObject({ code: 'SETUP_ERROR', message: expect.stringContaining('req.res') });
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: null });
  });

  it("with crossDevice 'refuse': 403, nobody signed in", async () => {
    const browser = await startFastify(nativeFastifyPassport, 'refuse');
    await browser.postJson('/auth/magic-link', { email: 'refuse@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'refuse@example.com'));
    expect(callback.status).toBe(403);
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: null });
  });

  it("with crossDevice 'accept' (no binding): the login fails closed, since the signals cannot be sealed in its session", async () => {
    const browser = await startFastify(nativeFastifyPassport, 'accept');
    await browser.postJson('/auth/magic-link', { email: 'accept@example.com' });
    const callback = await openLink(browser, linkTo(emulator, 'accept@example.com'));
    // secure-session is neither express-session (server-side) nor cookie-session with
    // sessionCompat(): no secret to seal the risk signals with, so nobody is signed in.
    expect(callback.status).toBe(500);
    expect(callback.json()).toMatchObject({ code: 'SETUP_ERROR', message: expect.stringContaining('no secret') });
    // The headers that keep the code out of caches and Referer are set on req.res: missing here.
    expect(callback.headers.get('cache-control')).toBeNull();
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ user: null });
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
