import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ForbiddenException } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { Request } from 'express';
import { MagicLinkStrategy } from 'passport-otpless';
import type { MagicLinkProfile } from 'passport-otpless';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ENDPOINTS } from '../../src/client/index.js';
import cookieSession from 'cookie-session';
import passport from 'passport';
import { sessionCompat } from 'passport-otpless';
import { OtplessModule } from 'passport-otpless/nest';
import { createApp } from '../../examples/nestjs/app.js';
import type { NestExampleConfig } from '../../examples/nestjs/config.js';
import { MemoryUserDirectory } from '../../examples/nestjs/users.js';
import type { AppUser, UserDirectory } from '../../examples/nestjs/users.js';
import { Browser } from './helpers/browser.js';
import type { Page } from './helpers/browser.js';
import { ensureBuilt } from './helpers/ensureBuild.js';
import { linkTo, openLink } from './helpers/inbox.js';

// The NestJS example (examples/nestjs) as it runs: Nest 12 on Express, OtplessModule from
// passport-otpless/nest (the one mount, its pages, the error filter) and LowRiskGuard,
// cookie-session, over real sockets against the emulator. The example imports
// 'passport-otpless' and 'passport-otpless/nest', which resolve to dist/.

const CLIENT = { clientId: 'nest-example-client', clientSecret: 'nest-example-secret-value' };
const JSON_ACCEPT = { accept: 'application/json' };

let emulator: Emulator;
beforeAll(async () => {
  await ensureBuilt();
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
}, 180_000);
afterAll(() => emulator?.close());

interface Running {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}
let running: Running | undefined;
afterEach(async () => {
  emulator.clearFaults();
  await running?.close();
  running = undefined;
});

/** A server on port 0 first, so the app can be given its callback URL; then the Nest app in it. */
async function serve(
  build: (config: NestExampleConfig) => Promise<INestApplication>,
  users?: UserDirectory,
): Promise<Running> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: NestExampleConfig = {
    otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
    callbackUrl: `${url}/auth/callback`,
    sessionKeys: ['nest-example-session-key-0123456789'],
    ...(users ? { users } : {}),
  };
  const app = await build(config);
  await app.init();
  server.on('request', app.getHttpAdapter().getInstance());
  running = {
    url,
    browser: new Browser(url),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
  return running;
}

const startExample = (users?: UserDirectory): Promise<Running> => serve((config) => createApp(config, false), users);

/** A user directory that counts the calls `validate` makes and answers as told. */
class CountingDirectory implements UserDirectory {
  calls = 0;
  constructor(private readonly answer: (profile: MagicLinkProfile) => Promise<AppUser | null>) {}
  signIn(profile: MagicLinkProfile): Promise<AppUser | null> {
    this.calls += 1;
    return this.answer(profile);
  }
}

/** send -> open the delivered link in the same browser; returns the callback's answer. */
async function logIn(browser: Browser, email: string, risk?: string): Promise<Page> {
  const sent = await browser.postJson('/auth/magic-link', { email });
  expect(sent.status).toBe(200);
  return openLink(browser, linkTo(emulator, email), risk);
}

describe('NestJS example: login', () => {
  it('sends a link, signs in on the callback, shows /me, passes the risk guard, and logs out', async () => {
    const { browser } = await startExample();
    const home = await browser.get('/', JSON_ACCEPT);
    expect(home.status).toBe(200);

    const sent = await browser.postJson('/auth/magic-link', { email: 'nest@example.com' });
    expect(sent.status).toBe(200);
    expect(sent.json()).toEqual({
      sent: [{ type: 'EMAIL', channel: 'EMAIL' }],
      match: expect.any(String),
      expiresAt: expect.any(String),
    });

    const callback = await openLink(browser, linkTo(emulator, 'nest@example.com'));
    expect(callback.status).toBe(303);
    expect(callback.location).toMatch(/\/me$/);
    expect(callback.headers.get('cache-control')).toBe('no-store');

    const me = await browser.get('/me', JSON_ACCEPT);
    expect(me.status).toBe(200);
    expect(me.json()).toEqual({ id: 'nest@example.com', email: 'nest@example.com' });
    const payments = await browser.get('/payments', JSON_ACCEPT);
    expect(payments.status).toBe(200);
    expect(payments.json()).toEqual({ risk: 'allow' });

    const out = await browser.postJson('/auth/logout', {});
    expect(out.status).toBe(200);
    expect(out.json()).toEqual({ signedOut: true });
    expect((await browser.get('/me', JSON_ACCEPT)).status).toBe(401);
  });

  it('the low-risk guard refuses a VPN login with 403, and a visitor who is not signed in with 401', async () => {
    const { browser } = await startExample();
    expect((await logIn(browser, 'vpn@example.com', 'vpn')).status).toBe(303);
    expect((await browser.get('/me', JSON_ACCEPT)).status).toBe(200);
    const payments = await browser.get('/payments', JSON_ACCEPT);
    expect(payments.status).toBe(403);
    expect(payments.json()).toEqual({ error: { code: expect.stringMatching(/^RISK_(BLOCKED|CHALLENGE)$/) } });

    const stranger = await browser.fresh().get('/payments', JSON_ACCEPT);
    expect(stranger.status).toBe(401);
    expect(stranger.json()).toEqual({ error: { code: 'UNAUTHENTICATED' } });
  });

  it("answers the strategy's refusals with their own status and code, not a bare 401", async () => {
    const { browser } = await startExample();
    const noCode = await browser.get('/auth/callback', JSON_ACCEPT);
    expect(noCode.status).toBe(400);
    expect(noCode.json()).toEqual({ error: { code: 'INVALID_CODE', message: expect.any(String) } });

    const badEmail = await browser.postJson('/auth/magic-link', { email: 'not-an-address' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.json()).toEqual({ error: { code: 'INVALID_INPUT', message: expect.any(String), field: 'email' } });
  });

  it('shows the approval page to a browser that did not ask for the link (cross-device), signing nobody in', async () => {
    const { browser } = await startExample();
    await browser.postJson('/auth/magic-link', { email: 'laptop@example.com' });
    const phone = browser.fresh();
    const page = await openLink(phone, linkTo(emulator, 'laptop@example.com'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approve sign-in on your computer?');
    expect((await phone.get('/me', JSON_ACCEPT)).status).toBe(401);
    const status = await browser.get('/auth/status', JSON_ACCEPT);
    expect(status.json()).toMatchObject({ status: 'pending' });
  });

  it("answers a service failure on the callback with the package's 503 and its error page", async () => {
    const users = new CountingDirectory(async (profile) => ({ id: profile.id }));
    const { browser } = await startExample(users);
    await browser.postJson('/auth/magic-link', { email: 'down@example.com' });
    emulator.fault({ path: ENDPOINTS.verifyCode.path, status: 503, times: 1 });
    const callback = await openLink(browser, linkTo(emulator, 'down@example.com'));
    expect(callback.status).toBe(503);
    expect(callback.headers.get('content-type')).toMatch(/^text\/html/);
    expect(callback.text).toContain('SERVICE_UNAVAILABLE');
    expect(callback.text).toContain('href="/auth/sign-in"');
    expect(users.calls).toBe(0);
  });

  it("serves the package's sign-in and waiting pages, no page of the app's own", async () => {
    const { browser } = await startExample();
    const signIn = await browser.get('/auth/sign-in');
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain('action="/auth/magic-link"');
    const sent = await browser.postForm('/auth/magic-link', { email: 'pages@example.com' });
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/\/auth\/waiting$/);
    const waiting = await browser.get('/auth/waiting');
    expect(waiting.status).toBe(200);
    expect(waiting.text).toContain('•••@example.com');
  });
});

describe('NestJS example: the verify function runs once, whatever it does', () => {
  it('a user: signed in, verify called once with the profile', async () => {
    const seen: string[] = [];
    const users = new CountingDirectory(async (profile) => {
      seen.push(profile.id);
      return { id: `user-${profile.id}` };
    });
    const { browser } = await startExample(users);
    const callback = await logIn(browser, 'once@example.com');
    expect(callback.status).toBe(303);
    expect((await browser.get('/me', JSON_ACCEPT)).json()).toEqual({ id: 'user-once@example.com' });
    expect(users.calls).toBe(1);
    expect(seen).toEqual(['once@example.com']);
  });

  it("null: 401 USER_REFUSED on the package's error page, nobody signed in, verify called once", async () => {
    const directory = new MemoryUserDirectory(new Set(['blocked@example.com']));
    const users = new CountingDirectory((profile) => directory.signIn(profile));
    const { browser } = await startExample(users);
    const callback = await logIn(browser, 'blocked@example.com');
    expect(callback.status).toBe(401);
    expect(callback.headers.get('content-type')).toMatch(/^text\/html/);
    expect(callback.text).toContain('USER_REFUSED');
    expect((await browser.get('/me', JSON_ACCEPT)).status).toBe(401);
    expect(users.calls).toBe(1);
  });

  it("a thrown Error: Nest's 500, nobody signed in, verify called once", async () => {
    const users = new CountingDirectory(async () => {
      throw new Error('user directory is down');
    });
    const { browser } = await startExample(users);
    const callback = await logIn(browser, 'throws@example.com');
    expect(callback.status).toBe(500);
    expect(callback.json()).toEqual({ statusCode: 500, message: 'Internal server error' });
    expect(callback.text).not.toContain('directory is down');
    expect((await browser.get('/me', JSON_ACCEPT)).status).toBe(401);
    expect(users.calls).toBe(1);
  });

  it('a thrown HttpException: Nest answers it as it is (403), verify called once', async () => {
    const users = new CountingDirectory(async () => {
      throw new ForbiddenException('Your account is suspended.');
    });
    const { browser } = await startExample(users);
    const callback = await logIn(browser, 'suspended@example.com');
    expect(callback.status).toBe(403);
    expect(callback.json()).toMatchObject({ statusCode: 403, message: 'Your account is suspended.' });
    expect(users.calls).toBe(1);
  });
});

/** A strategy with `passReqToCallback: true`: the mixin passes (req, profile) to validate. */
class WithRequestStrategy extends PassportStrategy(MagicLinkStrategy, 'magic-link') {
  readonly calls: Array<{ userAgent: string | undefined; id: string }> = [];

  constructor(config: NestExampleConfig) {
    super({ ...config.otpless, callbackUrl: config.callbackUrl, passReqToCallback: true });
  }

  validate(req: Request, profile: MagicLinkProfile): AppUser {
    this.calls.push({ userAgent: req.headers['user-agent'], id: profile.id });
    return { id: profile.id };
  }
}

class AuthModule {}

describe("NestJS: @nestjs/passport's PassportStrategy mixin as a provider, mounted by OtplessModule.forRootAsync", () => {
  it('hands validate the request and the profile, once, and signs in', async () => {
    let strategy: WithRequestStrategy | undefined;
    const { browser } = await serve(async (config) => {
      passport.serializeUser((user: Express.User, done) => done(null, user));
      passport.deserializeUser((user: Express.User, done) => done(null, user));
      // The strategy is a provider of the app's own module; the mixin registers it with Passport.
      const auth = {
        module: AuthModule,
        providers: [{ provide: WithRequestStrategy, useFactory: () => (strategy = new WithRequestStrategy(config)) }],
        exports: [WithRequestStrategy],
      };
      const moduleRef = await Test.createTestingModule({
        imports: [
          OtplessModule.forRootAsync({
            imports: [auth],
            inject: [WithRequestStrategy],
            useFactory: (given: WithRequestStrategy) => ({ strategy: given, passport, successRedirect: '/auth/done' }),
          }),
        ],
      }).compile();
      const app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
      app.use(cookieSession({ name: 'session', keys: config.sessionKeys }), sessionCompat(), passport.session());
      return app;
    });
    expect(strategy).toBeInstanceOf(MagicLinkStrategy);
    const callback = await logIn(browser, 'with-req@example.com');
    expect(callback.status).toBe(303);
    expect(callback.location).toMatch(/\/auth\/done$/);
    expect(strategy!.calls).toEqual([{ userAgent: 'ExamplesTestBrowser/1.0', id: 'with-req@example.com' }]);
  });
});
