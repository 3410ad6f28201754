// An app under test, in its own process (started by apps.ts):
// - 'strategy': the test harness's app (Express 5, cookie-session + sessionCompat, Passport,
//   MagicLinkStrategy), as a user would write it;
// - 'bare': Express 5 + cookie-session and one hand-written callback making the same upstream
//   calls with undici and writing the same session: the baseline of the login benchmark.
// Both use the same cookie name and keys, so one prepared pending cookie fits either.
import express from 'express';
import cookieSession from 'cookie-session';
import { Agent, request } from 'undici';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Emulator } from '../../src/emulator/index.js';
import passportPkg from 'passport';
import { Strategy as PassportStrategy } from 'passport-strategy';
import { MagicLinkStrategy, magicLinkRoutes, requireLowRisk, sessionCompat, type Enrichment } from '../../src/index.js';
import { CLIENT, startHarness } from '../../test/helpers/harness.js';
import { argsOf, heapAfterGc, serveCommands } from './child.js';
import { findPending, recordKeyOf, requestIdMatches, type StoredPending } from './pendingBinding.js';
import { profilerCommands } from './profiler.js';

export interface AppChildArgs {
  /**
   * 'strategy': the test harness's app (the callback routed by hand with
   * `passport.authenticate(name, { successRedirect })`); 'mount': the same strategy behind the
   * mount, `magicLinkRoutes(strategy, { passport, successRedirect })`, as the Quick start has it;
   * 'bare-bound': the bare handler plus the same browser binding check the strategy makes;
   * 'bare-passport': that same work as a minimal Passport strategy (sessionCompat, passport.session()).
   */
  mode: 'strategy' | 'mount' | 'bare' | 'bare-bound' | 'bare-passport';
  authUrl: string;
  userAuthUrl: string;
  enrich?: Enrichment[];
  /** Adds GET /plain and GET /guarded (requireLowRisk()), the same handler behind both. */
  guardRoutes?: boolean;
  /**
   * The strategy's send limits: 'counting' (the default: memory, budgets no run reaches, so every
   * send and login pays for the counting), 'redis' (the same on `redisUrl`), or 'off'.
   */
  limits?: 'counting' | 'redis' | 'off';
  redisUrl?: string;
}

const args = argsOf<AppChildArgs>();

type RedisClient = ReturnType<typeof import('redis').createClient>;

/** Budgets no benchmark reaches: every send is counted, none is refused. */
const ROOMY = { limit: 1_000_000, windowSeconds: 3600 };
/** Counts in Redis are keyed digests under a secret every instance shares (required with `redis`). */
const BENCH_LIMITS_SECRET = 'bench-send-limits-secret-0123456789abcdef';

async function startStrategyApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  let redis: RedisClient | undefined;
  if (args.limits === 'redis') {
    // Imported only when used: the redis package alone adds ~4.5 MB to a heap the memory row measures.
    const { createClient } = await import('redis');
    redis = createClient({ url: args.redisUrl });
    redis.on('error', () => undefined);
    await redis.connect();
  }
  const limits =
    args.limits === 'off'
      ? (false as const)
      : {
          perIp: ROOMY,
          perDestination: ROOMY,
          ...(redis ? { redis, prefix: `bench:${process.pid}:`, secret: BENCH_LIMITS_SECRET } : {}),
        };
  const h = await startHarness({
    // The harness reads only the emulator's two URLs; the emulator runs in another process.
    emulator: { authUrl: args.authUrl, userAuthUrl: args.userAuthUrl } as Emulator,
    strategy: { enrich: args.enrich ?? [], limits },
    routes: (app) => {
      if (!args.guardRoutes) return;
      const handler = (_req: express.Request, res: express.Response) => void res.json({ ok: true });
      app.get('/plain', handler);
      app.get('/guarded', requireLowRisk() as express.RequestHandler, handler);
    },
  });
  return {
    url: h.baseUrl,
    stop: async () => {
      await h.close();
      redis?.destroy();
    },
  };
}

async function startBareApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const agent = new Agent({ connections: 64 });
  const json = {
    'content-type': 'application/json',
    accept: 'application/json',
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
  };
  const post = async (url: string, body: object): Promise<unknown> => {
    const res = await request(url, { dispatcher: agent, method: 'POST', headers: json, body: JSON.stringify(body) });
    const parsed: unknown = await res.body.json();
    if (res.statusCode !== 200) throw Object.assign(new Error(`upstream ${res.statusCode}`), { status: 502 });
    return parsed;
  };
  const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const enrich = new Set(args.enrich ?? []);
  const bound = args.mode === 'bare-bound' || args.mode === 'bare-passport';
  const recordKey = recordKeyOf(CLIENT.clientSecret);
  // The strategy's binding, written by hand against the same session records (bench/support/pendingBinding.ts):
  // the live send whose flow id the link brought back, taken out of the session before verifying.
  const takePending = (req: express.Request): StoredPending | undefined => {
    const session = req.session as { otplessPending?: unknown } | null;
    const taken = session ? findPending(session.otplessPending, req.query.flow, recordKey) : undefined;
    if (!session || !taken) return undefined;
    if (taken.rest.length > 0) session.otplessPending = taken.rest;
    else delete session.otplessPending;
    return taken.found;
  };

  /** The callback's work: a refusal's status, or the verified e-mail address. */
  const logIn = async (req: express.Request): Promise<number | { email: string }> => {
    const code = req.query.code;
    if (typeof code !== 'string' || code === '') return 400;
    // Binding (login CSRF): a secure hand-written handler must read the signed session too.
    const pending = bound ? takePending(req) : undefined;
    if (bound && !pending) return 403;
    const verified = (await post(`${args.authUrl}/auth/v1/verify/code`, { code })) as {
      requestId: string;
      userDetails: { token: string; identities: Array<{ identityType: string; identityValue: string }> };
    };
    if (bound && (!pending || !requestIdMatches(pending, verified.requestId))) return 403;
    const { token, identities } = verified.userDetails;
    await Promise.all([
      enrich.has('validateToken') ? post(`${args.userAuthUrl}/auth/v1/validate/token`, { token }) : undefined,
      enrich.has('secureInfo') ? post(`${args.userAuthUrl}/auth/v1/secure-info`, { token }) : undefined,
      enrich.has('userInfo')
        ? request(`${args.authUrl}/auth/userInfo`, {
            dispatcher: agent,
            method: 'POST',
            headers: form,
            body: new URLSearchParams({
              token,
              client_id: CLIENT.clientId,
              client_secret: CLIENT.clientSecret,
            }).toString(),
          }).then((r) => r.body.json())
        : undefined,
    ]);
    return { email: identities.find((i) => i.identityType === 'EMAIL')?.identityValue ?? '' };
  };

  const app = express();
  app.use(cookieSession({ name: 'sess', keys: ['harness-cookie-key'] }));
  if (args.mode === 'bare-passport') {
    // The same work as a Passport strategy, behind sessionCompat() and passport.session() as in
    // the strategy app: what Passport's login (regenerate, serialize, redirect) adds to it.
    const passport = new passportPkg.Passport();
    passport.serializeUser((user: Express.User, done) => done(null, user));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    class BareStrategy extends PassportStrategy {
      name = 'bare';
      override authenticate(req: express.Request): void {
        logIn(req).then(
          (outcome) =>
            typeof outcome === 'number'
              ? this.fail(outcome)
              : this.success({ id: outcome.email, email: outcome.email }),
          (err: unknown) => this.error(err as Error),
        );
      }
    }
    passport.use(new BareStrategy());
    app.use(sessionCompat());
    app.use(passport.session());
    app.get('/auth/callback', passport.authenticate('bare', { successRedirect: '/me' }));
  } else {
    app.get('/auth/callback', async (req, res, next) => {
      try {
        const outcome = await logIn(req);
        if (typeof outcome === 'number') return void res.status(outcome).end();
        const { email } = outcome;
        // What the strategy leaves: Passport's user and the small login record (see loginRecord.ts).
        (req as { session: unknown }).session = {
          passport: { user: { id: email, email } },
          otpless: { v: 1, id: email, verified: ['EMAIL'] },
        };
        res.redirect('/me');
      } catch (err) {
        next(err);
      }
    });
  }
  app.get('/me', (req, res) => {
    const user = (req.session as { passport?: { user?: unknown } } | null)?.passport?.user;
    if (!user) return void res.status(401).json({ error: 'not logged in' });
    res.json({ user });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

/** The mount as the Quick start has it, on the harness's cookie session (same name and keys). */
async function startMountApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: args.authUrl,
      userAuthUrl: args.userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      enrich: args.enrich ?? [],
      limits: args.limits === 'off' ? false : { perIp: ROOMY, perDestination: ROOMY },
    },
    async (profile) => ({ id: profile.id, email: profile.emails.find((e) => e.verified)?.value }),
  );
  const passport = new passportPkg.Passport();
  passport.use(strategy);
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  const app = express();
  app.use(cookieSession({ name: 'sess', keys: ['harness-cookie-key'] }));
  app.use(sessionCompat());
  app.use(passport.session());
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me' }));
  app.get('/me', (req, res) => {
    if (!req.user) return void res.status(401).json({ error: 'not logged in' });
    res.json({ user: req.user });
  });
  server.on('request', app);
  return {
    url,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await strategy.client.close();
    },
  };
}

// 'bare', 'bare-bound' and 'bare-passport' are the hand-written handler (the last two add the binding check).
const app =
  args.mode === 'strategy'
    ? await startStrategyApp()
    : args.mode === 'mount'
      ? await startMountApp()
      : await startBareApp();
serveCommands(
  {
    heapUsed: () => heapAfterGc(),
    // Typed arrays' buffers are outside heapUsed: the limits' memory store keeps its table there.
    arrayBuffers: () => process.memoryUsage().arrayBuffers,
    cpu: () => process.cpuUsage(),
    ...profilerCommands,
  },
  { url: app.url },
  app.stop,
);
