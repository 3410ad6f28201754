import 'reflect-metadata';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import expressSession from 'express-session';
import { Passport } from 'passport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/client/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { OtplessSetupError } from '../../src/errors/index.js';
import { MagicLinkStrategy } from '../../src/index.js';
import { IdentityGuard, OtplessModule } from '../../src/nest/index.js';
import type { OtplessModuleOptions } from '../../src/nest/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { linkTo, openLink } from '../examples/helpers/inbox.js';

// passport-otpless/nest in real Nest 12 apps, on @nestjs/platform-express (express-session) and
// on @nestjs/platform-fastify (@fastify/session), over real sockets against the emulator: the
// module's mount, its exception filter for the package's errors, and IdentityGuard.

const CLIENT = { clientId: 'nest-module-client', clientSecret: 'nest-module-secret-0123456789' };
const JSON_ACCEPT = { accept: 'application/json' };
const HTML_ACCEPT = { accept: 'text/html' };
const STRATEGY = Symbol('strategy');

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(() => emulator?.close());

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  emulator.clearFaults();
  await close?.();
  close = undefined;
});

/** Routes that fail the ways an app's own code can, and one only a login by mobile reaches. */
class ProbeController {
  constructor(private readonly strategy: MagicLinkStrategy) {}

  /** The app calls the service itself, and the service fails. */
  async service(): Promise<void> {
    await this.strategy.client.verifyCode('probe-code-0123456789');
  }

  setup(): void {
    throw new OtplessSetupError('MISSING_SESSION', 'add app.use(session()) before the routes (details for the log)');
  }

  plain(): void {
    throw new Error('not a package error');
  }

  mobileOnly(): { allowed: true } {
    return { allowed: true };
  }
}
// Decorators as plain calls: this file is built without decorator metadata.
Controller('probe')(ProbeController);
Inject(STRATEGY)(ProbeController, undefined, 0);
for (const name of ['service', 'setup', 'plain', 'mobileOnly'] as const) {
  const descriptor = Object.getOwnPropertyDescriptor(ProbeController.prototype, name)!;
  Get(name)(ProbeController.prototype, name, descriptor);
  if (name === 'mobileOnly') UseGuards(new IdentityGuard('MOBILE'))(ProbeController.prototype, name, descriptor);
}

type Platform = 'express' | 'fastify';
type MountOptions = Omit<OtplessModuleOptions, 'strategy' | 'passport'>;

class AppModule {}

/** A Nest app on `platform` with OtplessModule and the probe routes, listening on port 0. */
async function start(platform: Platform, mount: MountOptions = { successRedirect: '/probe/mobileOnly' }) {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const strategy = new MagicLinkStrategy(
    { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl, callbackUrl: `${url}/auth/callback` },
    async (profile) => ({ id: profile.id }),
  );
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  const module = {
    module: AppModule,
    imports: [OtplessModule.forRoot({ strategy, passport, ...mount })],
    controllers: [ProbeController],
    providers: [{ provide: STRATEGY, useValue: strategy }],
  };
  let app: INestApplication;
  if (platform === 'express') {
    const express = await NestFactory.create<NestExpressApplication>(module, { logger: false });
    express.use(expressSession({ secret: 'nest-module-session-secret', resave: false, saveUninitialized: false }));
    express.use(passport.session());
    await express.init();
    server.on('request', express.getHttpAdapter().getInstance());
    app = express;
  } else {
    const adapter = new FastifyAdapter({
      serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => server.on('request', handler),
    });
    const fastify = await NestFactory.create<NestFastifyApplication>(module, adapter, { logger: false });
    await fastify.register(fastifyCookie);
    await fastify.register(fastifySession, {
      secret: 'nest-module-fastify-session-secret-0123456789',
      cookie: { secure: false, path: '/' },
      saveUninitialized: false,
    });
    const session = passport.session() as (req: unknown, res: unknown, next: (err?: Error) => void) => void;
    fastify
      .getHttpAdapter()
      .getInstance()
      .addHook('preHandler', (request, reply, done) => session(request, reply, done));
    await fastify.init();
    await fastify.getHttpAdapter().getInstance().ready();
    app = fastify;
  }
  close = async () => {
    server.closeAllConnections();
    if (platform === 'express') await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
  };
  return new Browser(url);
}

for (const platform of ['express', 'fastify'] as const) {
  describe(`OtplessModule on @nestjs/platform-${platform}`, () => {
    it('mounts the sign-in page at a path of its options, the send and the callback, and signs in', async () => {
      const browser = await start(platform, { successRedirect: '/probe/mobileOnly', paths: { signIn: '/login' } });
      const signIn = await browser.get('/login', HTML_ACCEPT);
      expect(signIn.status).toBe(200);
      expect(signIn.headers.get('content-type')).toMatch(/^text\/html/);
      expect(signIn.text).toContain('action="/auth/magic-link"');
      expect((await browser.get('/auth/sign-in', HTML_ACCEPT)).status).toBe(404);

      const to = `${platform}-mount@example.com`;
      const sent = await browser.postJson('/auth/magic-link', { email: to });
      expect(sent.status).toBe(200);
      expect(sent.json()).toMatchObject({ sent: [{ type: 'EMAIL' }], match: expect.any(String) });
      const callback = await openLink(browser, linkTo(emulator, to));
      expect(callback.status).toBe(303);
      expect(callback.location).toMatch(/\/probe\/mobileOnly$/);
      expect(callback.headers.get('set-cookie') ?? '').not.toBe('');
    });

    it("answers the service's failure on an app's own call with 503 and its code, as JSON", async () => {
      const browser = await start(platform);
      emulator.fault({ path: ENDPOINTS.verifyCode.path, status: 503, times: 1 });
      const page = await browser.get('/probe/service', JSON_ACCEPT);
      expect(page.status).toBe(503);
      expect(page.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
    });

    it("answers it to a browser with the package's error page: status, code, the way back, no stack", async () => {
      const browser = await start(platform, { successRedirect: '/', paths: { signIn: '/login' } });
      emulator.fault({ path: ENDPOINTS.verifyCode.path, status: 503, times: 1 });
      const page = await browser.get('/probe/service', HTML_ACCEPT);
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.text).toContain('SERVICE_UNAVAILABLE');
      expect(page.text).toContain('href="/login"');
      expect(page.text).not.toMatch(/OtplessApiError|\s at |node_modules/);
    });

    it('answers a setup mistake with 500 and its reason, the details kept for the log', async () => {
      const browser = await start(platform);
      const page = await browser.get('/probe/setup', JSON_ACCEPT);
      expect(page.status).toBe(500);
      expect(page.json()).toEqual({ error: { code: 'MISSING_SESSION', message: 'The server is not set up right.' } });
      const html = await browser.get('/probe/setup', HTML_ACCEPT);
      expect(html.status).toBe(500);
      expect(html.text).toContain('MISSING_SESSION');
      expect(html.text).not.toContain('details for the log');
    });

    it("leaves other errors to Nest's own filter", async () => {
      const browser = await start(platform);
      const page = await browser.get('/probe/plain', JSON_ACCEPT);
      expect(page.status).toBe(500);
      expect(page.json()).toEqual({ statusCode: 500, message: 'Internal server error' });
    });

    it('IdentityGuard: 401 before a login, 403 IDENTITY_REQUIRED after an e-mail login, through after a mobile one', async () => {
      const browser = await start(platform);
      const stranger = await browser.get('/probe/mobileOnly', JSON_ACCEPT);
      expect(stranger.status).toBe(401);
      expect(stranger.json()).toEqual({ error: { code: 'UNAUTHENTICATED' } });

      const email = `${platform}-guard@example.com`;
      await browser.postJson('/auth/magic-link', { email });
      expect((await openLink(browser, linkTo(emulator, email))).status).toBe(303);
      const byEmail = await browser.get('/probe/mobileOnly', JSON_ACCEPT);
      expect(byEmail.status).toBe(403);
      expect(byEmail.json()).toEqual({ error: { code: 'IDENTITY_REQUIRED' } });
      const page = await browser.get('/probe/mobileOnly', HTML_ACCEPT);
      expect(page.status).toBe(403);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);

      const phone = browser.fresh();
      const mobile = platform === 'express' ? '+919812340001' : '+919812340002';
      await phone.postJson('/auth/magic-link', { mobile });
      expect((await openLink(phone, linkTo(emulator, mobile))).status).toBe(303);
      const byMobile = await phone.get('/probe/mobileOnly', JSON_ACCEPT);
      expect(byMobile.status).toBe(200);
      expect(byMobile.json()).toEqual({ allowed: true });
    });
  });
}

describe('OtplessModule options', () => {
  const strategy = (): MagicLinkStrategy =>
    new MagicLinkStrategy(
      { ...CLIENT, authUrl: emulator.authUrl, callbackUrl: 'http://127.0.0.1:9/auth/callback' },
      async (profile) => ({ id: profile.id }),
    );
  const create = (options: unknown): Promise<unknown> =>
    NestFactory.create(
      { module: AppModule, imports: [OtplessModule.forRoot(options as OtplessModuleOptions)] },
      { logger: false, abortOnError: false },
    );

  it('refuses a missing passport, an unknown option and a strategy of another kind, naming each', async () => {
    await expect(create({ strategy: strategy() })).rejects.toThrow(/OtplessModule\.forRoot\(\): options\.passport/);
    await expect(create({ strategy: strategy(), passport: new Passport(), sucessRedirect: '/' })).rejects.toThrow(
      /sucessRedirect.*successRedirect/,
    );
    await expect(create({ strategy: {}, passport: new Passport() })).rejects.toThrow(
      /OtplessModule\.forRoot\(\): the first argument must be a MagicLinkStrategy/,
    );
  });
});
