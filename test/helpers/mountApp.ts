import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import { Passport } from 'passport';
import { afterEach } from 'vitest';
import { MagicLinkStrategy, magicLinkRoutes } from '../../src/index.js';
import type { MagicLinkRoutesOptions, MagicLinkStrategyOptions } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';

/** An app of the one mount, listening: the test adds its own routes (`/me` ...) after the mount. */
export interface MountApp {
  app: express.Express;
  server: Server;
  url: string;
  strategy: MagicLinkStrategy;
}

/**
 * The one mount as the Quick start writes it (Express 5, express-session, Passport, no page,
 * body parser or callback route of the app's own) on port 0, against `emulator()` with `client`;
 * each app is closed after its test.
 */
export function useMountApps(
  emulator: () => Emulator,
  client: { clientId: string; clientSecret: string },
  sessionSecret: string,
): (
  mount?: Omit<MagicLinkRoutesOptions, 'passport'>,
  strategyOptions?: Partial<MagicLinkStrategyOptions>,
) => Promise<MountApp> {
  const open: MountApp[] = [];
  afterEach(async () => {
    for (const { server, strategy } of open.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await strategy.client.close();
    }
  });
  return async (mount = {}, strategyOptions = {}) => {
    const app = express();
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const strategy = new MagicLinkStrategy(
      {
        ...client,
        authUrl: emulator().authUrl,
        userAuthUrl: emulator().userAuthUrl,
        callbackUrl: `${url}/auth/callback`,
        ...strategyOptions,
      } as MagicLinkStrategyOptions & { passReqToCallback?: false },
      async (profile) => ({ id: profile.id }),
    );
    open.push({ app, server, url, strategy });
    const passport = new Passport();
    passport.use(strategy);
    passport.serializeUser((user: Express.User, done) => done(null, user));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    app.use(expressSession({ secret: sessionSecret, resave: false, saveUninitialized: false }));
    app.use(passport.session());
    app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', ...mount }));
    return { app, server, url, strategy };
  };
}
