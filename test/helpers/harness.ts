import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import express4 from 'express4';
import passportPkg from 'passport';
import cookieSession from 'cookie-session';
import expressSession from 'express-session';
import supertest from 'supertest';
import { MagicLinkStrategy, sessionCompat, readLoginRecord } from '../../src/index.js';
import type { MagicLinkStrategyOptions, SendOptions, VerifyFunction } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';

export type SessionKind = 'cookie' | 'express';

export interface HarnessOptions {
  session?: SessionKind;
  /** With `session: 'express'`: its store (a connect-redis `RedisStore`, say). Default its MemoryStore. */
  sessionStore?: expressSession.Store;
  expressVersion?: 4 | 5;
  strategy?: Partial<MagicLinkStrategyOptions>;
  verify?: VerifyFunction;
  send?: SendOptions;
  /** Options for `passport.authenticate` on the callback route. */
  authenticate?: Record<string, unknown>;
  /** Reuse one emulator across harnesses (faster); a new one is started otherwise. */
  emulator?: Emulator;
  /** Extra routes, added before the error handler. */
  routes?: (app: express.Express) => void;
}

export interface Harness {
  app: express.Express;
  server: Server;
  baseUrl: string;
  emulator: Emulator;
  strategy: MagicLinkStrategy;
  passport: passportPkg.PassportStatic;
  /** A browser: a cookie-keeping client of the app. */
  browser(): supertest.Agent;
  close(): Promise<void>;
}

export const CLIENT = { clientId: 'harness-client', clientSecret: 'harness-secret-s3cr3t-value' };

/**
 * A real app as a user would write it: Express (5, or 4), a real session middleware, a real
 * Passport instance and the strategy, talking to the emulator over real sockets.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const ownEmulator = !options.emulator;
  const emulator = options.emulator ?? (await startEmulator({ clients: [CLIENT], quiet: true }));
  const makeApp = (options.expressVersion === 4 ? express4 : express) as unknown as typeof express;
  const app = makeApp();
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const passport = new passportPkg.Passport();
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));

  const verify =
    options.verify ??
    (async (profile) => ({
      id: profile.id,
      email: profile.emails.find((e) => e.verified)?.value,
      phone: profile.phoneNumbers.find((p) => p.verified)?.value,
    }));
  const strategy = new MagicLinkStrategy(
    {
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.clientSecret,
      authUrl: emulator.authUrl,
      userAuthUrl: emulator.userAuthUrl,
      callbackUrl: `${baseUrl}/auth/callback`,
      ...options.strategy,
    } as MagicLinkStrategyOptions & { passReqToCallback?: false },
    verify as VerifyFunction,
  );
  passport.use(strategy);

  if ((options.session ?? 'cookie') === 'cookie') {
    app.use(cookieSession({ name: 'sess', keys: ['harness-cookie-key'] }));
    app.use(sessionCompat());
  } else {
    app.use(
      expressSession({
        secret: 'harness-session-secret',
        resave: false,
        saveUninitialized: false,
        ...(options.sessionStore ? { store: options.sessionStore } : {}),
      }),
    );
  }
  app.use(passport.session());

  app.post('/auth/magic-link', express.urlencoded({ extended: false }), express.json(), strategy.send(options.send));
  const authenticate = passport.authenticate(strategy.name, { successRedirect: '/me', ...options.authenticate });
  app.get('/auth/callback', authenticate);
  app.post('/auth/callback', express.urlencoded({ extended: false }), express.json(), authenticate);
  app.get('/auth/status', strategy.status());
  app.get('/me', (req, res) => {
    if (!req.user) return res.status(401).json({ error: 'not logged in' });
    res.json({ user: req.user, record: readLoginRecord(req as never) ?? null, sessionID: req.sessionID ?? null });
  });
  app.post('/logout', (req, res, next) => req.logout((err) => (err ? next(err) : res.json({ ok: true }))));
  options.routes?.(app);
  app.use(
    (
      err: { status?: number; code?: string; message: string },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      res.status(err.status ?? 500).json({ error: { code: err.code ?? 'INTERNAL', message: err.message } });
    },
  );

  return {
    app,
    server,
    baseUrl,
    emulator,
    strategy,
    passport: passport as unknown as passportPkg.PassportStatic,
    // A browser names its origin on every POST, as real ones do.
    browser: () => supertest.agent(server).set('origin', baseUrl),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await strategy.client.close();
      if (ownEmulator) await emulator.close();
    },
  };
}

/** Opens a delivered link like a person would, and returns the callback path with `?code=`. */
export async function clickLink(link: string, risk?: string): Promise<string> {
  const url = new URL(link);
  if (risk) url.searchParams.set('risk', risk);
  const res = await fetch(url, { redirect: 'manual', headers: { 'user-agent': 'HarnessBrowser/1.0' } });
  const location = res.headers.get('location');
  await res.body?.cancel();
  if (res.status !== 302 || !location) throw new Error(`link answered ${res.status}, not a redirect`);
  const target = new URL(location);
  return `${target.pathname}${target.search}`;
}

/** The newest outbox entry sent to `to`. */
export function lastLinkTo(emulator: Emulator, to: string): string {
  const digits = to.replace(/[^\d]/g, '');
  const entry = [...emulator.outbox()].reverse().find((e) => e.to === to || (!to.includes('@') && e.to === digits));
  if (!entry) throw new Error(`no link was sent to ${to}`);
  return entry.link;
}

/** send -> click -> callback, in one browser; returns the callback response. */
export async function loginVia(
  h: Harness,
  browser: supertest.Agent,
  body: Record<string, string>,
  risk?: string,
): Promise<supertest.Response> {
  const sent = await browser.post('/auth/magic-link').set('accept', 'application/json').send(body);
  if (sent.status !== 200) throw new Error(`send answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  const to = body.email ?? body.mobile ?? '';
  const callback = await clickLink(lastLinkTo(h.emulator, to), risk);
  return browser.get(callback);
}
