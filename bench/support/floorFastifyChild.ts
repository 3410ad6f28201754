// The same-work floor on Fastify 5 + @fastify/secure-session + @fastify/passport, in its own
// process (bench/ab.ts `--app fastify --base-mode floor`): a hand-written Passport strategy doing
// per callback what the strategy does (bench/support/floorLogin.ts), logged in with
// @fastify/passport's `request.logIn` from a custom callback that then writes the bound login
// record and redirects. Same session key and cookie name as the strategy app (the same plug-in as
// ours), so a pending cookie made by its send route fits. No part of the package runs here.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Authenticator } from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';
import Fastify from 'fastify';
import { Strategy as PassportStrategy } from 'passport-strategy';
import { argsOf, heapAfterGc, serveCommands } from './child.js';
import { floorLogin, type FloorArgs, type FloorUser } from './floorLogin.js';
import { profilerCommands } from './profiler.js';

const args = argsOf<FloorArgs>();
const floor = floorLogin(args);
/** The strategy app's session settings (bench/support/fastifyAppChild.ts). */
const SESSION = { key: Buffer.alloc(32, 11), cookie: { path: '/', httpOnly: true } };

interface Session {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

class FloorStrategy extends PassportStrategy {
  name = 'floor';
  override authenticate(given: unknown): void {
    const req = given as { query: { code?: unknown; flow?: unknown }; session: Session };
    const session = req.session;
    const taken = floor.take(session.get('otplessPending'), req.query.flow);
    if (!taken) return this.fail(403);
    // Taken before verifying: this send serves one login, whatever happens next.
    session.set('otplessPending', taken.rest.length > 0 ? taken.rest : undefined);
    floor.verify(req.query.code, taken.found).then(
      (outcome) => (typeof outcome === 'number' ? this.fail(outcome) : this.success(outcome)),
      (err: unknown) => this.error(err as Error),
    );
  }
}

const server = createServer();
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });
const passport = new Authenticator();
await app.register(fastifySecureSession, SESSION);
await app.register(passport.initialize());
await app.register(passport.secureSession());
passport.use('floor', new FloorStrategy());
passport.registerUserSerializer(async (user: FloorUser) => user);
passport.registerUserDeserializer(async (user: FloorUser) => user);
app.get(
  '/auth/callback',
  {
    preValidation: passport.authenticate('floor', async (request, reply, err, user, _info, status) => {
      if (err) throw err;
      if (!user) return void reply.code(status ?? 401).send();
      await request.logIn(user);
      // A secure-session cookie has no id: the record binds to ''.
      (request.session as unknown as Session).set('otpless', floor.record(user as FloorUser, ''));
      return void reply.redirect('/me');
    }),
  },
  async () => ({}),
);
app.get('/me', async (request, reply) => (request.user ? { user: request.user } : reply.code(401).send({})));
await app.ready();
serveCommands(
  { heapUsed: () => heapAfterGc(), cpu: () => process.cpuUsage(), ...profilerCommands },
  { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
  async () => {
    server.closeAllConnections();
    await app.close();
    // Fastify closes only a server it listened on itself; this one listened here (serverFactory).
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await floor.close();
  },
);
