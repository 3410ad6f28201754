// A native Fastify app under test, in its own process (started by bench/fastify.ts):
// - 'strategy': Fastify 5 + @fastify/secure-session + @fastify/passport + otplessFastify() +
//   MagicLinkStrategy, set up as docs/frameworks.md shows;
// - 'bare': Fastify 5 + @fastify/secure-session and one hand-written callback making the same
//   upstream call (verify code) with undici and writing the same session (the old one cleared);
// - 'bare-passport': the same upstream call with the strategy's browser binding, as a minimal
//   Passport strategy on @fastify/passport (`secureSession()`, its login and redirect): the
//   Passport-only floor of the strategy app.
// Both use the same session key and cookie name, so one prepared pending cookie fits either.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Authenticator } from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { Strategy as PassportStrategy } from 'passport-strategy';
import { MagicLinkStrategy, otplessFastify } from '../../src/index.js';
import { CLIENT } from '../../test/helpers/harness.js';
import { argsOf, serveCommands } from './child.js';
import { findPending, recordKeyOf, requestIdMatches, type StoredPending } from './pendingBinding.js';
import { profilerCommands } from './profiler.js';

export interface FastifyAppChildArgs {
  mode: 'strategy' | 'mount' | 'bare' | 'bare-passport';
  authUrl: string;
  userAuthUrl: string;
  /** The strategy's send limits: 'counting' (the default, budgets no run reaches) or 'off'. */
  limits?: 'counting' | 'off';
  /** The strategy's `crossDevice` ('handoff', the default, keeps a flow record per send to discard at login). */
  crossDevice?: 'handoff' | 'refuse' | 'accept';
}

const args = argsOf<FastifyAppChildArgs>();
const SESSION = { key: Buffer.alloc(32, 11), cookie: { path: '/', httpOnly: true } };
/** Budgets no benchmark reaches: every send is counted, none is refused (as in the Express row). */
const ROOMY = { limit: 1_000_000, windowSeconds: 3600 };

interface User {
  id: string;
  email?: string;
}

async function listen(): Promise<{ server: ReturnType<typeof createServer>; url: string }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The strategy app. 'strategy' routes the callback itself (`preValidation:
 * passport.authenticate(name, { successRedirect })`); 'mount' registers the whole mount as
 * docs/frameworks.md shows it (`otplessFastify({ strategy, passport, successRedirect, secret })`).
 */
async function startStrategyApp(mount: boolean): Promise<{ url: string; stop: () => Promise<void> }> {
  const { server, url } = await listen();
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: args.authUrl,
      userAuthUrl: args.userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      limits: args.limits === 'off' ? false : { perIp: ROOMY, perDestination: ROOMY },
      ...(args.crossDevice ? { crossDevice: args.crossDevice } : {}),
    },
    async (profile): Promise<User> => ({ id: profile.id, email: profile.emails.find((e) => e.verified)?.value }),
  );
  const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });
  const passport = new Authenticator();
  await app.register(fastifySecureSession, SESSION);
  await app.register(passport.initialize());
  await app.register(passport.secureSession());
  passport.use(strategy.name, strategy);
  passport.registerUserSerializer(async (user: User) => user);
  passport.registerUserDeserializer(async (user: User) => user);
  if (mount) {
    await app.register(
      otplessFastify({ strategy, passport, successRedirect: '/me', secret: 'bench-fastify-signals-secret-0123456789' }),
    );
  } else {
    await app.register(otplessFastify({ secret: 'bench-fastify-signals-secret-0123456789' }));
    app.post('/auth/magic-link', strategy.send());
    app.get(
      '/auth/callback',
      { preValidation: passport.authenticate(strategy.name, { successRedirect: '/me' }) },
      async () => ({}),
    );
  }
  app.get('/me', async (request, reply) => (request.user ? { user: request.user } : reply.code(401).send({})));
  await app.ready();
  return {
    url,
    stop: async () => {
      server.closeAllConnections();
      await app.close();
      // Fastify closes only a server it listened on itself; this one listened here (serverFactory).
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await strategy.client.close();
    },
  };
}

async function startBareApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { server, url } = await listen();
  const agent = new Agent({ connections: 64 });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
  };
  const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });
  await app.register(fastifySecureSession, SESSION);
  app.get('/auth/callback', async (req, reply) => {
    const code = (req.query as { code?: unknown }).code;
    if (typeof code !== 'string' || code === '') return reply.code(400).send();
    const res = await request(`${args.authUrl}/auth/v1/verify/code`, {
      dispatcher: agent,
      method: 'POST',
      headers,
      body: JSON.stringify({ code }),
    });
    const verified = (await res.body.json()) as {
      userDetails: { identities: Array<{ identityType: string; identityValue: string }> };
    };
    if (res.statusCode !== 200) return reply.code(502).send();
    const email = verified.userDetails.identities.find((i) => i.identityType === 'EMAIL')?.identityValue ?? '';
    // What the strategy leaves: @fastify/passport's user and the small login record.
    const session = req.session as unknown as { set(key: string, value: unknown): void; data(): object | undefined };
    // A new session, as @fastify/passport's login makes it (clearSessionOnLogin): the pending
    // link goes, and the cookie written is the same size as the strategy app's.
    for (const key of Object.keys(session.data() ?? {})) session.set(key, undefined);
    session.set('passport', { id: email, email });
    session.set('otpless', { v: 1, id: email, verified: ['EMAIL'] });
    return reply.redirect('/me');
  });
  await app.ready();
  return {
    url,
    stop: async () => {
      server.closeAllConnections();
      await app.close();
      // Fastify closes only a server it listened on itself; this one listened here (serverFactory).
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

/**
 * The strategy's binding and verify call as a minimal strategy on @fastify/passport: the live
 * send whose flow id the link brought back, taken out of the session before verifying, then
 * the service's request id hashed and compared (as appChild.ts's 'bare-passport' on Express).
 */
async function startBarePassportApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { server, url } = await listen();
  const agent = new Agent({ connections: 64 });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
  };
  type Session = { get(key: string): unknown; set(key: string, value: unknown): void };
  const recordKey = recordKeyOf(CLIENT.clientSecret);
  const takePending = (session: Session, flow: unknown): StoredPending | undefined => {
    const taken = findPending(session.get('otplessPending'), flow, recordKey);
    if (!taken) return undefined;
    session.set('otplessPending', taken.rest.length > 0 ? taken.rest : undefined);
    return taken.found;
  };
  const logIn = async (req: { query: unknown; session: unknown }): Promise<number | User> => {
    const { code, flow } = req.query as { code?: unknown; flow?: unknown };
    if (typeof code !== 'string' || code === '') return 400;
    const pending = takePending(req.session as Session, flow);
    if (!pending) return 403;
    const res = await request(`${args.authUrl}/auth/v1/verify/code`, {
      dispatcher: agent,
      method: 'POST',
      headers,
      body: JSON.stringify({ code }),
    });
    const verified = (await res.body.json()) as {
      requestId: string;
      userDetails: { identities: Array<{ identityType: string; identityValue: string }> };
    };
    if (res.statusCode !== 200) return 401;
    if (!requestIdMatches(pending, verified.requestId)) return 403;
    const email = verified.userDetails.identities.find((i) => i.identityType === 'EMAIL')?.identityValue ?? '';
    return { id: email, email };
  };
  class BareStrategy extends PassportStrategy {
    name = 'bare';
    override authenticate(req: never): void {
      logIn(req).then(
        (outcome) => (typeof outcome === 'number' ? this.fail(outcome) : this.success(outcome)),
        (err: unknown) => this.error(err as Error),
      );
    }
  }
  const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });
  const passport = new Authenticator();
  await app.register(fastifySecureSession, SESSION);
  await app.register(passport.initialize());
  await app.register(passport.secureSession());
  passport.use('bare', new BareStrategy());
  passport.registerUserSerializer(async (user: User) => user);
  passport.registerUserDeserializer(async (user: User) => user);
  app.get(
    '/auth/callback',
    { preValidation: passport.authenticate('bare', { successRedirect: '/me' }) },
    async () => ({}),
  );
  app.get('/me', async (request, reply) => (request.user ? { user: request.user } : reply.code(401).send({})));
  await app.ready();
  return {
    url,
    stop: async () => {
      server.closeAllConnections();
      await app.close();
      // Fastify closes only a server it listened on itself; this one listened here (serverFactory).
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

const app =
  args.mode === 'bare'
    ? await startBareApp()
    : args.mode === 'bare-passport'
      ? await startBarePassportApp()
      : await startStrategyApp(args.mode === 'mount');
serveCommands({ cpu: () => process.cpuUsage(), ...profilerCommands }, { url: app.url }, app.stop);
