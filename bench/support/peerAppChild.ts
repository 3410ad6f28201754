// A peer's magic-link login, in its own process (started by bench/peers.ts), set up as its README
// shows, on the same Express 5 the strategy app runs:
// - 'magic-login': passport-magic-login (a signed JWT in the link; no service call, nothing
//   single use: a used link logs in again until it expires), behind cookie-session and Passport,
//   its secret a string as its README passes it;
// - 'magic-login-key': the same with its secret passed as a key object (jsonwebtoken then skips
//   turning the string into a key on every verify);
// - 'better-auth': better-auth's magic-link plugin on SQLite (better-sqlite3), mounted with
//   `toNodeHandler`: a verification row per link, a user and a session row per login.
// The links each app "sends" are kept in memory and handed to the load generator with the
// `links` command, as an outbox would. Peers are resolved from node_modules, or from
// `peersDir` (a directory with its own node_modules: `npm install --prefix DIR ...`).
import { createSecretKey } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import cookieSession from 'cookie-session';
import express from 'express';
import passportPkg from 'passport';
import { argsOf, heapAfterGc, serveCommands } from './child.js';
import { profilerCommands } from './profiler.js';

export type PeerMode = 'magic-login' | 'magic-login-key' | 'better-auth';

export interface PeerAppChildArgs {
  mode: PeerMode;
  /** Where the peers are installed (a directory holding node_modules); this checkout's by default. */
  peersDir?: string;
}

const args = argsOf<PeerAppChildArgs>();
const peerRequire = createRequire(join(args.peersDir ?? process.cwd(), 'package.json'));
/** Imports a peer package (or one of its subpaths) from where it is installed. */
async function importPeer<T>(specifier: string): Promise<T> {
  return (await import(pathToFileURL(peerRequire.resolve(specifier)).href)) as T;
}

/** Logins that went through (a user handed to Passport, or a session row created), checked by bench/peers.ts. */
let loggedIn = 0;

/** Links "sent", by destination, until the load generator takes them. */
const outbox = new Map<string, string>();
const takeLinks = (destinations: string[]) =>
  destinations.map((d) => {
    const link = outbox.get(d);
    outbox.delete(d);
    return link ?? null;
  });

interface Started {
  url: string;
  stop: () => Promise<void>;
}

async function listen(app: express.Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface MagicLoginOptions {
  secret: unknown;
  callbackUrl: string;
  sendMagicLink: (destination: string, href: string) => Promise<void>;
  verify: (payload: { destination: string }, done: (err: unknown, user?: object) => void) => void;
}
type MagicLoginCtor = new (options: MagicLoginOptions) => passportPkg.Strategy & {
  send: express.RequestHandler;
  callbackUrl?: string;
};

async function startMagicLogin(keyObject: boolean): Promise<Started> {
  const mod = await importPeer<{ default: MagicLoginCtor | { default: MagicLoginCtor } }>('passport-magic-login');
  // A CommonJS module with an ES default: one `default` or two, depending on the loader.
  const MagicLoginStrategy = (typeof mod.default === 'function' ? mod.default : mod.default.default) as MagicLoginCtor;
  const secret = 'bench-magic-login-secret-0123456789abcdef';
  const magicLogin = new MagicLoginStrategy({
    secret: keyObject ? createSecretKey(Buffer.from(secret)) : secret,
    callbackUrl: '/auth/magiclogin/callback',
    sendMagicLink: async (destination, href) => void outbox.set(destination, href),
    // "Get or create a user": the README's verify, the user found at once.
    verify: (payload, done) => {
      loggedIn++;
      done(null, { id: payload.destination, email: payload.destination });
    },
  });
  const passport = new passportPkg.Passport();
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  passport.use(magicLogin);
  const app = express();
  // The same cookie session as the strategy app; Passport 0.6+ needs regenerate/save on it,
  // which cookie-session lacks: the usual two no-ops.
  app.use(cookieSession({ name: 'sess', keys: ['harness-cookie-key'] }));
  app.use((req, _res, next) => {
    const session = req.session as unknown as Record<string, unknown> | null;
    if (session) {
      session.regenerate ??= (done: () => void) => done();
      session.save ??= (done: () => void) => done();
    }
    next();
  });
  app.use(passport.session());
  app.post('/auth/magiclogin', express.json(), magicLogin.send);
  app.get('/auth/magiclogin/callback', passport.authenticate('magiclogin', { successRedirect: '/me' }));
  app.get('/me', (req, res) => (req.user ? void res.json({ user: req.user }) : void res.status(401).end()));
  const server = await listen(app);
  return { url: server.url, stop: server.close };
}

interface BetterAuthModule {
  betterAuth(options: object): { options: object; handler: unknown };
}

async function startBetterAuth(): Promise<Started> {
  const { betterAuth } = await importPeer<BetterAuthModule>('better-auth');
  const { magicLink } = await importPeer<{ magicLink(options: object): object }>('better-auth/plugins');
  const { toNodeHandler } = await importPeer<{ toNodeHandler(auth: object): express.RequestHandler }>(
    'better-auth/node',
  );
  const { getMigrations } = await importPeer<{
    getMigrations(options: object): Promise<{ runMigrations(): Promise<void> }>;
  }>('better-auth/db/migration');
  const Database = (await importPeer<{ default: new (file: string) => { close(): void } }>('better-sqlite3')).default;
  const dir = mkdtempSync(join(tmpdir(), 'bench-better-auth-'));
  // BENCH_BETTER_AUTH_DB=memory: an in-memory database (no file, no journal), to tell how much
  // of better-auth's cost is SQLite's writes to disk (docs/performance.md, the peers).
  const db = new Database(process.env.BENCH_BETTER_AUTH_DB === 'memory' ? ':memory:' : join(dir, 'sqlite.db'));
  const app = express();
  const server = await listen(app);
  const auth = betterAuth({
    database: db,
    baseURL: server.url,
    secret: 'bench-better-auth-secret-0123456789abcdef',
    plugins: [
      magicLink({
        sendMagicLink: async ({ email, url }: { email: string; url: string }) => void outbox.set(email, url),
      }),
    ],
    logger: { disabled: true },
    databaseHooks: { session: { create: { after: async () => void loggedIn++ } } },
  });
  await (await getMigrations(auth.options)).runMigrations();
  // As its README mounts it on Express 5 (before any body parser).
  app.all('/api/auth/*splat', toNodeHandler(auth));
  app.get('/me', (_req, res) => void res.json({ ok: true }));
  return {
    url: server.url,
    stop: async () => {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const app =
  args.mode === 'better-auth' ? await startBetterAuth() : await startMagicLogin(args.mode === 'magic-login-key');
serveCommands(
  {
    links: (destinations: string[]) => takeLinks(destinations),
    loggedIn: () => loggedIn,
    heapUsed: () => heapAfterGc(),
    cpu: () => process.cpuUsage(),
    ...profilerCommands,
  },
  { url: app.url },
  app.stop,
);
