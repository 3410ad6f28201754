import type { IncomingMessage, ServerResponse } from 'node:http';
import connect from 'connect';
import type { NextFunction, NextHandleFunction, Server } from 'connect';
import cookieSession from 'cookie-session';
import { Passport } from 'passport';
import {
  isOtplessError,
  MagicLinkStrategy,
  magicLinkRoutes,
  OtplessRequestError,
  requireLowRisk,
  sessionCompat,
} from 'passport-otpless';
import type { MagicLinkStrategyOptions } from 'passport-otpless';

// A bare Connect app: no res.redirect, no res.json, no req.query, no req.res, no method routing,
// no body parser. The one mount, magicLinkRoutes(), needs none of them: it reads its own form
// and JSON bodies, routes by method, and writes its redirects and pages on Node's response
// (303 to successRedirect after the login). sessionCompat() gives cookie-session what Passport
// 0.6+ calls. The app's own routes below use a small method-routing helper.

export interface ConnectAppOptions {
  otpless: Pick<MagicLinkStrategyOptions, 'clientId' | 'clientSecret' | 'authUrl' | 'userAuthUrl'>;
  callbackUrl: string;
  sessionKeys: string[];
}

interface AppUser {
  id: string;
}

/** Passport's request methods, which `passport.session()` adds to a Connect request too. */
type PassportRequest = IncomingMessage & {
  user?: AppUser;
  logout(done: (err?: unknown) => void): void;
};

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
};

/** Runs `handlers` in turn for `method` on exactly the path the route was mounted at. */
function on(method: string, ...handlers: NextHandleFunction[]): NextHandleFunction {
  return (req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== method || path !== '/') return next();
    const run = (i: number, err?: unknown): void => {
      if (err || i === handlers.length) return next(err);
      handlers[i]!(req, res, (e) => run(i + 1, e));
    };
    run(0);
  };
}

export function createApp(options: ConnectAppOptions): { app: Server; close(): Promise<void> } {
  const strategy = new MagicLinkStrategy(
    { ...options.otpless, callbackUrl: options.callbackUrl, enrich: ['secureInfo'] },
    async (profile) => ({ id: profile.id }),
  );
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));

  const app = connect();
  // cookie-session and Passport are typed with Express's request and response; they run on Node's.
  app.use(
    cookieSession({
      name: 'session',
      keys: options.sessionKeys,
      httpOnly: true,
      sameSite: 'lax',
    }) as NextHandleFunction,
  );
  app.use(sessionCompat());
  app.use(passport.session() as NextHandleFunction);

  // The whole login: GET /auth/sign-in, POST /auth/magic-link, GET /auth/waiting, GET /auth/status,
  // GET|POST /auth/callback (the link, and the phone's approval form).
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me' }));
  app.use(
    '/auth/logout',
    on('POST', (req: IncomingMessage, res: ServerResponse, next: NextFunction) =>
      (req as PassportRequest).logout((err) => (err ? next(err) : json(res, 200, { signedOut: true }))),
    ),
  );
  app.use(
    '/me',
    on('GET', (req: IncomingMessage, res: ServerResponse) => {
      const user = (req as PassportRequest).user;
      json(res, user ? 200 : 401, user ?? { error: { code: 'UNAUTHENTICATED' } });
    }),
  );
  app.use(
    '/payments',
    on('GET', requireLowRisk(), (_req: IncomingMessage, res: ServerResponse) => json(res, 200, { allowed: true })),
  );

  // Connect's error handler: four arguments. The package's errors carry their status.
  app.use((err: unknown, _req: IncomingMessage, res: ServerResponse, _next: NextFunction) => {
    if (err instanceof OtplessRequestError) return json(res, err.status, err);
    json(res, 500, { error: { code: isOtplessError(err) ? err.code : 'INTERNAL' } });
  });

  return { app, close: () => strategy.client.close() };
}
