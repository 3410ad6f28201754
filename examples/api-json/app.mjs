import cookieSession from 'cookie-session';
import express from 'express';
import { Passport } from 'passport';
import {
  MagicLinkStrategy,
  magicLinkRoutes,
  OtplessRequestError,
  readLoginRecord,
  requireIdentity,
  requireLowRisk,
  sessionCompat,
} from 'passport-otpless';

/**
 * A JSON-only API for a single-page app, on the one mount (`magicLinkRoutes()`). The magic link
 * brings the person to a page of the frontend (`frontendCallbackURL`, sent to the service as the
 * redirect URI); that page reads `?code=&flow=` and POSTs `{ "code", "flow" }` to the same path,
 * which the mount answers. Only the POST spends the code, so a mail scanner that opens the link
 * spends nothing: the same reason the strategy's HTML `confirm` mode exists, without an HTML page.
 *
 * @param {object} options
 * @param {{ clientId: string, clientSecret: string, authUrl?: string, userAuthUrl?: string }} options.otpless
 * @param {string} options.frontendCallbackURL The frontend page the link opens, such as `https://app.example.com/signin/finish`.
 * @param {string[]} options.sessionKeys Secrets that sign the session cookie.
 * @param {import('passport-otpless').SendLimitsOptions | false} [options.limits] The strategy's send limits
 *   per IP and per destination. Default: the library's (5 per destination, 20 per IP, per 15 minutes).
 * @param {(line: string) => void} [options.log] Where unexpected errors go. Default `console.error`.
 * @returns {{ app: import('express').Express, strategy: MagicLinkStrategy, close(): Promise<void> }}
 */
export function createApp({ otpless, frontendCallbackURL, sessionKeys, limits, log = console.error }) {
  const strategy = new MagicLinkStrategy(
    {
      ...otpless,
      callbackUrl: frontendCallbackURL,
      enrich: ['validateToken'],
      // A refused send answers 429 { error: { code: 'RATE_LIMITED', message, retryAfterSeconds } } with Retry-After.
      ...(limits !== undefined ? { limits } : {}),
    },
    async (profile) => ({
      id: profile.id,
      email: profile.emails.find((e) => e.verified)?.value ?? null,
      phone: profile.phoneNumbers.find((p) => p.verified)?.value ?? null,
    }),
  );
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user, done) => done(null, user));

  const SEND = '/api/auth/magic-link';
  // The mount's callback is the frontend page's own path: the page POSTs there.
  const CALLBACK = new URL(frontendCallbackURL).pathname;

  const app = express();
  app.disable('x-powered-by');
  // JSON only: the library's guards answer JSON to requests that ask for it, so every API
  // request asks for it (fetch and curl send `Accept: */*`, which would get an HTML page).
  app.use(['/api', CALLBACK], (req, _res, next) => {
    req.headers.accept = 'application/json';
    next();
  });
  app.use(
    cookieSession({
      name: 'api.session',
      keys: sessionKeys,
      httpOnly: true,
      sameSite: 'lax',
      secure: new URL(frontendCallbackURL).protocol === 'https:',
      maxAge: 8 * 60 * 60 * 1000,
    }),
  );
  app.use(sessionCompat());
  app.use(passport.session());

  // A cross-site HTML form cannot send `application/json` (that takes a CORS preflight this
  // API never grants), so accepting only JSON bodies shuts out forged POSTs.
  app.post([SEND, CALLBACK], (req, res, next) =>
    req.is('application/json')
      ? next()
      : res.status(415).json(problem('UNSUPPORTED_MEDIA_TYPE', 'Send a JSON body (Content-Type: application/json).')),
  );
  // The link's GET is the frontend's page, never this API's: nothing here spends a code on GET.
  app.get(CALLBACK, (_req, res) => res.status(404).json(problem('NOT_FOUND', 'The frontend serves this page.')));

  /**
   * The whole login, JSON in and out (the mount reads the bodies itself):
   * - POST /api/auth/magic-link { email } or { mobile } -> 200 { sent, match, expiresAt },
   *   400 { error: { code, message, field } }, or 429 RATE_LIMITED (the strategy's send limits).
   * - GET /api/auth/status -> { status, match?, expiresAt? } (a link opened on another device).
   * - POST <callback> { code, flow } (from the link) or { token } (from the frontend SDK)
   *   -> 200 { signedIn: true, redirect } or 4xx { error: { code, message } }.
   * The frontend draws the sign-in page ('/'): the mount serves none.
   */
  app.use(
    magicLinkRoutes(strategy, {
      passport,
      successRedirect: '/',
      paths: { send: SEND, status: '/api/auth/status' },
      pages: { signIn: '/' },
    }),
  );

  const requireUser = (req, res, next) =>
    req.user ? next() : res.status(401).json(problem('UNAUTHENTICATED', 'Sign in first.'));

  app.get('/api/me', requireUser, (req, res) => res.json(account(req, req.user)));
  app.get('/api/payments', requireUser, requireLowRisk(), (_req, res) => res.json({ payments: [] }));
  app.get('/api/sms-alerts', requireUser, requireIdentity('MOBILE'), (_req, res) => res.json({ alerts: [] }));

  app.post('/api/auth/logout', (req, res, next) => {
    req.logout((err) => (err ? next(err) : res.status(204).end()));
  });

  app.use((_req, res) => res.status(404).json(problem('NOT_FOUND', 'No such endpoint.')));

  // Errors as JSON, never a stack trace; the client's message only where it is meant for people.
  app.use((err, req, res, _next) => {
    const status = Number.isInteger(err.status) && err.status >= 400 && err.status < 600 ? err.status : 500;
    if (status >= 500) log(`${req.method} ${req.path} failed: ${err.name ?? 'Error'}: ${err.message}`);
    if (err instanceof OtplessRequestError) return res.status(status).json(err.toJSON());
    res
      .status(status)
      .json(
        status < 500
          ? problem('BAD_REQUEST', 'The request could not be read.')
          : problem('INTERNAL', 'Something went wrong.'),
      );
  });

  return {
    app,
    strategy,
    async close() {
      await strategy.client.close();
    },
  };
}

function problem(code, message) {
  return { error: { code, message } };
}

/** What the API tells the signed-in client about itself. */
function account(req, user) {
  const record = readLoginRecord(req);
  return { user, verified: record?.verified ?? [], risk: record?.risk?.action ?? null };
}
