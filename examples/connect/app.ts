import type { IncomingMessage, ServerResponse } from 'node:http';
import bodyParser from 'body-parser';
import connect from 'connect';
import type { NextFunction, NextHandleFunction, Server } from 'connect';
import cookieSession from 'cookie-session';
import { Passport } from 'passport';
import { isOtplessError, MagicLinkStrategy, requireLowRisk, sessionCompat } from 'passport-otpless';
import type { MagicLinkStrategyOptions } from 'passport-otpless';

// A bare Connect app: no res.redirect, no res.json, no req.query, no req.res, no method routing.
// The package's middleware (send, status, guards, sessionCompat) use only Node's own req/res;
// Passport's successRedirect/failureRedirect call Express's res.redirect, so the callback uses
// a custom callback and redirects by hand (the strategy refuses the redirect options on Connect
// with a setup error saying so). sessionCompat() lets the strategy's pages find the response.

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
  logIn(user: AppUser, done: (err?: unknown) => void): void;
  logout(done: (err?: unknown) => void): void;
};

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
};

const redirect = (res: ServerResponse, location: string): void => {
  res.statusCode = 303;
  res.setHeader('Location', location);
  res.end();
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

  // Passport with a custom callback: it hands over the outcome and leaves the answer to us.
  const finishLogin: NextHandleFunction = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
    const authenticate = passport.authenticate(
      strategy.name,
      (err: unknown, user: AppUser | false, info: unknown, status?: number) => {
        if (err) return next(err);
        if (!user) return json(res, status ?? 401, { error: info });
        (req as PassportRequest).logIn(user, (loginErr) => (loginErr ? next(loginErr) : redirect(res, '/me')));
      },
    ) as NextHandleFunction;
    authenticate(req, res, next);
  };

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

  app.use(
    '/auth/magic-link',
    on('POST', bodyParser.json(), bodyParser.urlencoded({ extended: false }), strategy.send()),
  );
  app.use('/auth/callback', on('GET', finishLogin));
  app.use('/auth/callback', on('POST', bodyParser.urlencoded({ extended: false }), finishLogin)); // the approval form
  app.use('/auth/status', on('GET', strategy.status()));
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
    if (isOtplessError(err, 'REQUEST_FAILED')) return json(res, err.status, err);
    json(res, 500, { error: { code: isOtplessError(err) ? err.code : 'INTERNAL' } });
  });

  return { app, close: () => strategy.client.close() };
}
