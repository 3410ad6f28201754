/**
 * The app of bench/passkey.ts in its own process: Express 5, express-session, Passport and the
 * one mount with `passkeys` on, its credentials seeded with the driver's public key (one passkey
 * per user). Answers `cpu` with its own process CPU (µs), so the driver measures the app alone.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import { Passport } from 'passport';
import { MagicLinkStrategy, MemoryFlowStore, StoreCredentials, magicLinkRoutes } from '../../src/index.js';
import { CLIENT } from '../../test/helpers/harness.js';
import { argsOf, serveCommands } from './child.js';

interface Args {
  authUrl: string;
  userAuthUrl: string;
  publicKey: string;
  credentialId: string;
  users: number;
}

const args = argsOf<Args>();
const server = createServer();
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://localhost:${(server.address() as AddressInfo).port}`;
const credentials = new StoreCredentials(new MemoryFlowStore({ maxEntries: 1_000_000 }));
for (let i = 0; i < args.users; i++) {
  await credentials.save({
    id: `${args.credentialId}-${i}`,
    userId: `user-${i}@example.com`,
    userHandle: Buffer.from(`user-${i}`).toString('base64url'),
    publicKey: args.publicKey,
    counter: 0,
    transports: ['internal'],
    identities: [{ type: 'EMAIL', value: `user-${i}@example.com` }],
    createdAt: Date.now(),
  });
}
const strategy = new MagicLinkStrategy(
  {
    ...CLIENT,
    authUrl: args.authUrl,
    userAuthUrl: args.userAuthUrl,
    callbackUrl: `${url}/auth/callback`,
    limits: false,
    store: new MemoryFlowStore({ maxEntries: 1_000_000 }),
  },
  async (profile) => ({ id: profile.id }),
);
const passport = new Passport();
passport.use(strategy);
passport.serializeUser((user: Express.User, done) => done(null, user));
passport.deserializeUser((user: Express.User, done) => done(null, user));
const app = express();
app.use(expressSession({ secret: 'bench-passkey-session', resave: false, saveUninitialized: false }));
app.use(passport.session());
app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', passkeys: { credentials } }));
app.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
server.on('request', app);

serveCommands(
  {
    cpu: () => {
      const { user, system } = process.cpuUsage();
      return user + system;
    },
  },
  { url },
  async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
);
