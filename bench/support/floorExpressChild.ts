// The same-work floor on Express 5 + cookie-session + Passport, in its own process (bench/ab.ts
// `--base-mode floor`): a hand-written Passport strategy doing per callback what the strategy
// does (bench/support/floorLogin.ts), logged in with Passport's own `req.logIn` and a custom
// callback that then writes the bound login record and redirects. Same cookie name and keys as
// the strategy app, so a pending cookie made by its send route fits. No part of the package runs here.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import cookieSession from 'cookie-session';
import express from 'express';
import passportPkg from 'passport';
import { Strategy as PassportStrategy } from 'passport-strategy';
import { argsOf, heapAfterGc, serveCommands } from './child.js';
import { floorLogin, type FloorArgs, type FloorUser } from './floorLogin.js';
import { profilerCommands } from './profiler.js';

const args = argsOf<FloorArgs>();
const floor = floorLogin(args);

type Session = Record<string, unknown>;

class FloorStrategy extends PassportStrategy {
  name = 'floor';
  override authenticate(req: express.Request): void {
    const session = req.session as unknown as Session;
    const taken = floor.take(session.otplessPending, req.query.flow);
    if (!taken) return this.fail(403);
    // Taken before verifying: this send serves one login, whatever happens next.
    if (taken.rest.length > 0) session.otplessPending = taken.rest;
    else delete session.otplessPending;
    floor.verify(req.query.code, taken.found).then(
      (outcome) => (typeof outcome === 'number' ? this.fail(outcome) : this.success(outcome)),
      (err: unknown) => this.error(err as Error),
    );
  }
}

const passport = new passportPkg.Passport();
passport.serializeUser((user: Express.User, done) => done(null, user));
passport.deserializeUser((user: Express.User, done) => done(null, user));
passport.use(new FloorStrategy());

// Passport 0.6+ calls regenerate and save, which cookie-session lacks: the usual no-ops (a
// cookie session has no id to fix). Not enumerable, so cookie-session never sees them.
const noop = (callback?: () => void) => callback?.();
const sessionMethods = { regenerate: { value: noop, configurable: true }, save: { value: noop, configurable: true } };

const app = express();
app.use(cookieSession({ name: 'sess', keys: ['harness-cookie-key'] }));
app.use((req, _res, next) => {
  if (req.session) Object.defineProperties(req.session, sessionMethods);
  next();
});
app.use(passport.session());
app.get('/auth/callback', (req, res, next) => {
  passport.authenticate('floor', (err: unknown, user: FloorUser | false, _info: unknown, status?: number) => {
    if (err) return next(err);
    if (!user) return void res.status(status ?? 401).end();
    req.logIn(user, (loginErr) => {
      if (loginErr) return next(loginErr);
      // A cookie session has no id: the record binds to ''.
      (req.session as unknown as Session).otpless = floor.record(user, '');
      res.redirect('/me');
    });
  })(req, res, next);
});
app.get('/me', (req, res) => {
  if (!req.user) return void res.status(401).json({ error: 'not logged in' });
  res.json({ user: req.user });
});

const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
serveCommands(
  { heapUsed: () => heapAfterGc(), cpu: () => process.cpuUsage(), ...profilerCommands },
  { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
  async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await floor.close();
  },
);
