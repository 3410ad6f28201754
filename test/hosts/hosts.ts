import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import { Authenticator } from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';
import fastifySession from '@fastify/session';
import connect from 'connect';
import type { NextFunction, NextHandleFunction } from 'connect';
import cookieSession from 'cookie-session';
import express from 'express';
import express4 from 'express4';
import expressSession from 'express-session';
import Fastify from 'fastify';
import { Passport } from 'passport';
import { MagicLinkStrategy, magicLinkRoutes, otplessFastify, requireLowRisk, sessionCompat } from '../../src/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import type { Browser } from '../examples/helpers/browser.js';
import type { FlowStore } from '../../src/index.js';

/**
 * Every host the package runs in, each set up as its guide (docs/frameworks.md) says: the one
 * mount (`magicLinkRoutes()`, or `otplessFastify({ strategy, passport })`, successRedirect '/me')
 * for POST /auth/magic-link, GET /auth/status, GET /auth/sign-in, GET /auth/waiting and GET and
 * POST /auth/callback; and GET /me, GET /payments (requireLowRisk), POST /logout.
 */

export const CLIENT = { clientId: 'hosts-client', clientSecret: 'hosts-secret-value-0123456789' };

/** The strategy options a scenario asks for, beside the client and the URLs. */
export type ScenarioOptions = Partial<Pick<MagicLinkStrategyOptions, 'confirm' | 'crossDevice'>> & {
  /** The strategy's flow store (a test that watches it). */
  store?: FlowStore;
  /**
   * The mount's `passkeys: true`, as the host's guide turns passkeys on. The app then runs on
   * `localhost` (a WebAuthn RP ID cannot be an IP address).
   */
  passkeys?: true;
  /** @fastify/session's `rolling` (its own default, `true`); the guide's `false` when unset. Other hosts ignore it. */
  rolling?: boolean;
};

/**
 * A browser's session as whoever writes the session store sees it: the store's entry (a
 * server-side session), or the cookie itself for a cookie session (written with the app's cookie
 * key, as its holder could).
 */
export interface SessionAccess {
  /** The session library's id of the browser's session ('' for a cookie session). */
  id(browser: Browser): string;
  /** The session's data as stored (JSON). */
  read(browser: Browser): Promise<Record<string, unknown>>;
  /** Stores `data` as the browser's session (for a cookie session, the browser's new cookie). */
  write(browser: Browser, data: Record<string, unknown>): Promise<void>;
}

export interface RunningHost {
  url: string;
  /** The sessions of the running app, as a writer of its store reaches them. */
  sessions: SessionAccess;
  close(): Promise<void>;
}

/** The browser's cookie `name`, decoded. */
function cookieOf(browser: Browser, name: string): string {
  const value = browser.cookies()[name];
  if (value === undefined) throw new Error(`the browser has no ${name} cookie`);
  return decodeURIComponent(value);
}

/** A callback-style session store (express-session's, @fastify/session's). */
interface CallbackStore {
  get(sid: string, done: (err: unknown, session?: unknown) => void): void;
  set(sid: string, session: unknown, done: (err?: unknown) => void): void;
}

/**
 * A server-side store: the session id is the signed cookie's (`s:<id>.<signature>` for
 * express-session, `<id>.<signature>` for @fastify/session); entries are read and written as
 * JSON, as a Redis store keeps them.
 */
function storeAccess(store: () => CallbackStore, cookie: string): SessionAccess {
  const id = (browser: Browser): string => {
    const signed = cookieOf(browser, cookie).replace(/^s:/, '');
    return signed.slice(0, signed.lastIndexOf('.'));
  };
  return {
    id,
    read: (browser) =>
      new Promise((resolve, reject) =>
        store().get(id(browser), (err, session) =>
          err ? reject(err as Error) : resolve(JSON.parse(JSON.stringify(session ?? {})) as Record<string, unknown>),
        ),
      ),
    write: (browser, data) =>
      new Promise((resolve, reject) =>
        store().set(id(browser), data, (err) => (err ? reject(err as Error) : resolve())),
      ),
  };
}

/** cookie-session's cookie: base64 JSON, signed by Keygrip (HMAC-SHA1 of `name=value`) under the first key. */
function cookieSessionAccess(name: string, key: string): SessionAccess {
  return {
    id: () => '',
    read: async (browser) =>
      JSON.parse(Buffer.from(cookieOf(browser, name), 'base64').toString('utf8')) as Record<string, unknown>,
    async write(browser, data) {
      const value = Buffer.from(JSON.stringify(data)).toString('base64');
      const sig = createHmac('sha1', key)
        .update(`${name}=${value}`)
        .digest('base64')
        .replace(/\/|\+|=/g, (c) => ({ '/': '_', '+': '-', '=': '' })[c]!);
      browser.setCookie(name, value);
      browser.setCookie(`${name}.sig`, sig);
    },
  };
}

/** @fastify/secure-session's cookie, opened and sealed with the app's own decorations (its key). */
interface SecureSessionApp {
  decodeSecureSession(cookie: string): { data(): Record<string, unknown> } | null;
  createSecureSession(data: Record<string, unknown>): object;
  encodeSecureSession(session: object): string;
}
function secureSessionAccess(app: SecureSessionApp): SessionAccess {
  return {
    id: () => '',
    read: async (browser) =>
      JSON.parse(JSON.stringify(app.decodeSecureSession(cookieOf(browser, 'session'))?.data() ?? {})) as Record<
        string,
        unknown
      >,
    async write(browser, data) {
      browser.setCookie('session', encodeURIComponent(app.encodeSecureSession(app.createSecureSession(data))));
    },
  };
}

export interface HostDefinition {
  /** Short id used in test names and the docs' table. */
  id: string;
  /** What the docs' table calls it. */
  label: string;
  /** The session library it runs with. */
  session: string;
  /** What this host does differently, for the docs' table (empty when nothing). */
  note: string;
  /** The status of the callback's redirect after a login (Passport's 302 unless the app says otherwise). */
  successStatus?: number;
  /** Where the app logs out (POST). */
  logoutPath?: string;
  /** `{ user }` as GET /me shows it, when the app's /me answers otherwise. */
  me?(browser: Browser): Promise<unknown>;
  start(emulator: Emulator, options: ScenarioOptions): Promise<RunningHost>;
}

/** `{ user }` of GET /me, however the host's app shows it (the id only). */
export async function signedIn(host: HostDefinition, browser: Browser): Promise<unknown> {
  if (host.me) return host.me(browser);
  const { user } = (await browser.get('/me', { accept: 'application/json' })).json<{ user: { id: string } | null }>();
  return { user: user && { id: user.id } };
}

interface User {
  id: string;
}

/** A server on port 0 first: the strategy needs its callback URL before the app exists. */
async function listen(options: ScenarioOptions = {}): Promise<{ server: Server; url: string }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const host = options.passkeys ? 'localhost' : '127.0.0.1';
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}` };
}

/** The mount's own options a scenario asks for (`passkeys`), beside `successRedirect`. */
function mountOptions(options: ScenarioOptions): { passkeys?: true } {
  return options.passkeys ? { passkeys: options.passkeys } : {};
}

function newStrategy(emulator: Emulator, url: string, given: ScenarioOptions): MagicLinkStrategy {
  const { passkeys: _mount, rolling: _session, ...options } = given;
  return new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: emulator.authUrl,
      userAuthUrl: emulator.userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      enrich: ['secureInfo'],
      ...options,
    },
    async (profile): Promise<User> => ({ id: profile.id }),
  );
}

async function closeServer(server: Server, strategy: MagicLinkStrategy): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await strategy.client.close();
}

/** Express 4 or 5, as the README's quick start sets it up. */
function expressHost(version: 4 | 5, sessionKind: 'express-session' | 'cookie-session'): HostDefinition {
  return {
    id: `express${version}`,
    label: `Express ${version}`,
    session: sessionKind,
    note: '',
    successStatus: 303,
    async start(emulator, options) {
      const { server, url } = await listen(options);
      const strategy = newStrategy(emulator, url, options);
      const passport = new Passport();
      passport.use(strategy);
      passport.serializeUser((user: Express.User, done) => done(null, user));
      passport.deserializeUser((user: Express.User, done) => done(null, user));
      const app = (version === 4 ? express4 : express)() as express.Express;
      const store = new expressSession.MemoryStore();
      if (sessionKind === 'express-session') {
        app.use(expressSession({ secret: 'hosts-session-secret', resave: false, saveUninitialized: false, store }));
      } else {
        app.use(cookieSession({ name: 'session', keys: ['hosts-cookie-session-key-0123456789'] }));
        app.use(sessionCompat());
      }
      app.use(passport.session());
      app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', ...mountOptions(options) }));
      app.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
      app.get('/payments', requireLowRisk(), (_req, res) => void res.json({ allowed: true }));
      app.post('/logout', (req, res, next) => req.logout((err) => (err ? next(err) : res.json({ user: null }))));
      server.on('request', app);
      const sessions =
        sessionKind === 'express-session'
          ? storeAccess(() => store as unknown as CallbackStore, 'connect.sid')
          : cookieSessionAccess('session', 'hosts-cookie-session-key-0123456789');
      return { url, sessions, close: () => closeServer(server, strategy) };
    },
  };
}

/** Fastify 5 with @fastify/passport 4, on either session plugin, as docs/frameworks.md shows. */
function fastifyHost(sessionKind: '@fastify/session' | '@fastify/secure-session'): HostDefinition {
  return {
    id: sessionKind === '@fastify/session' ? 'fastify-session' : 'fastify-secure-session',
    label: 'Fastify 5 (@fastify/passport)',
    session: sessionKind,
    note:
      sessionKind === '@fastify/session'
        ? 'register `otplessFastify({ strategy, passport })`'
        : 'register `otplessFastify({ strategy, passport, secret })`: the secret seals the risk signals in the cookie',
    successStatus: 303,
    async start(emulator, options) {
      const { server, url } = await listen(options);
      const strategy = newStrategy(emulator, url, options);
      const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });
      const passport = new Authenticator();
      const store = new fastifySession.MemoryStore();
      if (sessionKind === '@fastify/session') {
        await app.register(fastifyCookie);
        await app.register(fastifySession, {
          secret: 'hosts-fastify-session-secret-0123456789',
          cookie: { secure: false, path: '/' },
          saveUninitialized: false,
          // As docs/frameworks.md says: a poll answered after the login must not re-send the old session.
          rolling: options.rolling ?? false,
          store,
        });
      } else {
        await app.register(fastifySecureSession, { key: Buffer.alloc(32, 7), cookie: { path: '/', httpOnly: true } });
      }
      await app.register(passport.initialize());
      await app.register(passport.secureSession());
      passport.use(strategy.name, strategy);
      passport.registerUserSerializer(async (user: User) => user);
      passport.registerUserDeserializer(async (user: User) => user);
      // The one mount; with @fastify/secure-session the cookie is the session, and the risk
      // signals are sealed in it with `secret`.
      await app.register(
        otplessFastify({
          strategy,
          passport,
          successRedirect: '/me',
          ...mountOptions(options),
          ...(sessionKind === '@fastify/secure-session' ? { secret: 'hosts-signals-secret-0123456789' } : {}),
        }),
      );
      app.get('/me', async (request) => ({ user: request.user ?? null }));
      app.get('/payments', { preHandler: requireLowRisk() }, async () => ({ allowed: true }));
      app.post('/logout', async (request) => {
        await request.logOut();
        return { user: null };
      });
      await app.ready();
      return {
        url,
        sessions:
          sessionKind === '@fastify/session'
            ? storeAccess(() => store as unknown as CallbackStore, 'sessionId')
            : secureSessionAccess(app as unknown as SecureSessionApp),
        close: async () => {
          server.closeAllConnections();
          await app.close();
          await strategy.client.close();
        },
      };
    },
  };
}

/** Bare Connect 3 with cookie-session: the same one mount (it writes its own redirects). */
const connectHost: HostDefinition = {
  id: 'connect',
  label: 'Connect 3',
  session: 'cookie-session',
  note: '`magicLinkRoutes()` writes its own redirects, so Connect needs no `res.redirect`',
  successStatus: 303,
  async start(emulator, options) {
    const { server, url } = await listen(options);
    const strategy = newStrategy(emulator, url, options);
    const passport = new Passport();
    passport.use(strategy);
    passport.serializeUser((user: Express.User, done) => done(null, user));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    type Req = IncomingMessage & { user?: User; logout(done: (err?: unknown) => void): void };
    const json = (res: ServerResponse, status: number, body: unknown): void => {
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(body));
    };
    const route =
      (method: string | undefined, path: string, ...handlers: NextHandleFunction[]): NextHandleFunction =>
      (req, res, next) => {
        if ((method && req.method !== method) || (req.url ?? '').split('?')[0] !== path) return next();
        const run = (i: number, err?: unknown): void => {
          if (err || i === handlers.length) return next(err);
          handlers[i]!(req, res, (e?: unknown) => run(i + 1, e));
        };
        run(0);
      };
    const app = connect();
    app.use(cookieSession({ name: 'session', keys: ['hosts-cookie-session-key-0123456789'] }) as NextHandleFunction);
    app.use(sessionCompat());
    app.use(passport.session() as NextHandleFunction);
    app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', ...mountOptions(options) }));
    app.use(route('GET', '/me', (req, res) => json(res, 200, { user: (req as Req).user ?? null })));
    app.use(route('GET', '/payments', requireLowRisk(), (_req, res) => json(res, 200, { allowed: true })));
    app.use(
      route('POST', '/logout', (req, res, next) =>
        (req as Req).logout((err) => (err ? next(err) : json(res, 200, { user: null }))),
      ),
    );
    app.use(((
      err: { status?: number; code?: string; message?: string },
      _req: IncomingMessage,
      res: ServerResponse,
      _next: NextFunction,
    ) => json(res, err.status ?? 500, { code: err.code, message: err.message })) as never);
    server.on('request', app);
    return {
      url,
      sessions: cookieSessionAccess('session', 'hosts-cookie-session-key-0123456789'),
      close: () => closeServer(server, strategy),
    };
  },
};

/**
 * examples/nestjs as it is, on either platform, with the same module and guard. It imports
 * 'passport-otpless' and 'passport-otpless/nest' (dist/), so the suite builds the package first.
 */
interface NestApp {
  init(): Promise<unknown>;
  close(): Promise<void>;
  getHttpAdapter(): {
    getInstance(): ((req: IncomingMessage, res: ServerResponse) => void) & {
      ready?(): Promise<unknown>;
      addHook?(name: 'onRequest', hook: (request: never, reply: unknown, done: () => void) => void): unknown;
    };
  };
}

/** examples/nestjs/app.ts, as the suite uses it. */
interface NestExample {
  createApp(config: object, logger: false): Promise<NestApp>;
  createFastifyApp(config: object, logger: false, serverFactory: (handler: never) => Server): Promise<NestApp>;
}

// Nest's legacy decorators are type-checked with the example's own tsconfig (as for
// test/examples/nestjs.test.ts): loaded here by a path the main tsconfig does not follow.
const NEST_EXAMPLE = '../../examples/nestjs/app.js';

function nestHost(platform: 'express' | 'fastify'): HostDefinition {
  return {
    id: `nest-${platform}`,
    label: platform === 'express' ? 'NestJS 12 on Express' : 'NestJS 12 on Fastify',
    session: platform === 'express' ? 'cookie-session' : '@fastify/session',
    note:
      platform === 'express'
        ? 'examples/nestjs: `OtplessModule.forRoot({ strategy, passport })` from `passport-otpless/nest`, `LowRiskGuard`'
        : 'the same module; Passport itself (not @fastify/passport) with @fastify/session, `passport.session()` in a preHandler hook',
    successStatus: 303,
    logoutPath: '/auth/logout',
    async me(browser) {
      const page = await browser.get('/me', { accept: 'application/json' });
      return page.status === 401 ? { user: null } : { user: { id: page.json<{ id: string }>().id } };
    },
    async start(emulator, options) {
      const { server, url } = await listen(options);
      const { passkeys: _mount, ...strategy } = options;
      const config = {
        otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
        callbackUrl: `${url}/auth/callback`,
        sessionKeys: ['hosts-nest-session-secret-0123456789'],
        strategy,
        ...mountOptions(options),
      };
      const example = (await import(/* @vite-ignore */ NEST_EXAMPLE)) as NestExample;
      if (platform === 'express') {
        const app = await example.createApp(config, false);
        await app.init();
        server.on('request', app.getHttpAdapter().getInstance());
        return {
          url,
          sessions: cookieSessionAccess('session', config.sessionKeys[0]!),
          close: async () => {
            server.closeAllConnections();
            await new Promise<void>((resolve) => server.close(() => resolve()));
            await app.close();
          },
        };
      }
      const app = await example.createFastifyApp(config, false, (handler) => server.on('request', handler));
      // @fastify/session's store, as each request names it.
      let store: CallbackStore | undefined;
      app
        .getHttpAdapter()
        .getInstance()
        .addHook?.('onRequest', (request: { sessionStore?: CallbackStore }, _reply: unknown, done: () => void) => {
          store ??= request.sessionStore;
          done();
        });
      await app.init();
      await app.getHttpAdapter().getInstance().ready?.();
      return {
        url,
        sessions: storeAccess(() => {
          if (!store) throw new Error('no request has reached the app yet');
          return store;
        }, 'sessionId'),
        close: async () => {
          server.closeAllConnections();
          await app.close();
        },
      };
    },
  };
}

/** Every host of the suite, in the order of the docs' table. */
export const HOSTS: readonly HostDefinition[] = [
  expressHost(5, 'express-session'),
  expressHost(4, 'cookie-session'),
  connectHost,
  fastifyHost('@fastify/session'),
  fastifyHost('@fastify/secure-session'),
  nestHost('express'),
  nestHost('fastify'),
];
