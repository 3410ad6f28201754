import { createServer } from 'node:http';
import express from 'express';
import cookieSession from 'cookie-session';
import { Passport } from 'passport';
import { MagicLinkStrategy, magicLinkRoutes, requireLowRisk, sessionCompat } from 'passport-otpless';
import { isSafeLocalPath } from './localPath.mjs';
import { riskCause, toSessionUser } from './user.mjs';
import { accountPage, errorPage, paymentsPage, refusedPage } from './views.mjs';

/**
 * Send limits on the emulator: loose enough to try every scenario of the dev inbox in a row
 * with one address (each needs a link of its own). Against the real service the library's
 * defaults apply (5 per destination and 20 per IP per 15 minutes): real messages cost money.
 */
export const EMULATOR_LIMITS = Object.freeze({
  perDestination: Object.freeze({ limit: 50, windowSeconds: 15 * 60 }),
  perIp: Object.freeze({ limit: 200, windowSeconds: 15 * 60 }),
});

/** Acme's look on the package's sign-in, waiting, approval and error pages (the colours of views.mjs). */
export const ACME_THEME = Object.freeze({
  name: 'Acme',
  colors: Object.freeze({ accent: '#2451d6', background: '#f4f5f7', text: '#161b26' }),
});

/**
 * The example app: Express 5, cookie-session, Passport, `MagicLinkStrategy` and the one mount,
 * `magicLinkRoutes()`, which serves the sign-in and waiting pages, the send, the status and the
 * callback. The app draws only its own pages: the account, payments (behind `requireLowRisk()`)
 * and its refusal.
 *
 * @param {object} options
 * @param {{ clientId: string, clientSecret: string, authUrl?: string, userAuthUrl?: string }} options.otpless
 *   Credentials, plus the emulator's URLs in demo mode (the real service's are the default).
 * @param {string} options.callbackUrl Absolute URL of `/auth/callback` as the browser reaches it.
 * @param {string[]} options.sessionKeys Secrets that sign the session cookie (newest first).
 * @param {string} [options.devInboxUrl] Demo mode: the emulator's dev inbox, named on the waiting page.
 * @param {import('passport-otpless').SendLimitsOptions | false} [options.limits] The strategy's send limits
 *   (default: the library's, 5 per destination and 20 per IP per 15 minutes).
 * @param {import('passport-otpless').CountryCode} [options.defaultCountry] Where numbers typed without `+` are read.
 * @param {boolean | number | string} [options.trustProxy] Express's `trust proxy` (set it behind a TLS proxy).
 * @param {(line: string) => void} [options.log] Where unexpected errors are reported. Default `console.error`.
 * @returns {{ app: import('express').Express, strategy: MagicLinkStrategy, close(): Promise<void> }}
 */
export function createApp(options) {
  const { otpless, callbackUrl, sessionKeys, devInboxUrl, limits, defaultCountry, trustProxy = false } = options;
  const log = options.log ?? ((line) => console.error(line));
  if (
    !Array.isArray(sessionKeys) ||
    sessionKeys.length === 0 ||
    sessionKeys.some((k) => typeof k !== 'string' || k.length < 16)
  ) {
    throw new TypeError(
      'createApp: sessionKeys must be a non-empty array of secrets, each at least 16 characters long',
    );
  }
  const demo = Boolean(devInboxUrl);
  // The mount's sign-in page is a sibling of the callback: /auth/callback gives /auth/sign-in.
  const SIGN_IN = new URL('sign-in', callbackUrl).pathname;
  const requireLogin = requireLoginAt(SIGN_IN);

  const strategy = new MagicLinkStrategy(
    {
      ...otpless,
      callbackUrl,
      enrich: ['validateToken', 'secureInfo', 'userInfo'],
      // Sends are limited per IP and per destination by the strategy itself (429 with Retry-After).
      ...(limits !== undefined ? { limits } : {}),
      ...(defaultCountry ? { defaultCountry } : {}),
      pages: {
        theme: ACME_THEME,
        // Demo mode: nothing leaves this computer, so the waiting page says where the link is.
        ...(demo
          ? {
              messages: {
                en: {
                  'waiting.open': `Demo mode: nothing was really sent. Open the link from the dev inbox, ${devInboxUrl}, in this browser or in another one (your "phone").`,
                },
              },
            }
          : {}),
      },
    },
    // No user database here: the session keeps the small user object the pages show.
    async (profile) => toSessionUser(profile, { keepReasons: demo }),
  );
  // A Passport instance of its own, so two apps in one process (the tests) do not share one.
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user, done) => done(null, user));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.use(securityHeaders);
  app.use(
    cookieSession({
      name: 'acme.session',
      keys: sessionKeys,
      httpOnly: true,
      // Lax: sent when the magic link brings the browser back (a top-level GET), never on a
      // cross-site POST, which keeps the forms safe from cross-site requests.
      sameSite: 'lax',
      secure: new URL(callbackUrl).protocol === 'https:',
      maxAge: 8 * 60 * 60 * 1000,
    }),
  );
  // cookie-session lacks the regenerate()/save() Passport 0.6+ calls on login and logout.
  app.use(sessionCompat());
  app.use(passport.session());

  // Someone signed in already (in another tab, say) has nothing to do on the sign-in page.
  app.get(SIGN_IN, (req, res, next) => (req.user ? res.redirect('/account') : next()));

  // The whole login: GET /auth/sign-in, POST /auth/magic-link, GET /auth/waiting, GET /auth/status,
  // GET|POST /auth/callback. Once signed in: the session's returnTo (set by requireLogin), else /account.
  app.use(
    magicLinkRoutes(strategy, {
      passport,
      successRedirect: '/account',
      // The person picks WhatsApp or SMS for a number.
      channelChoice: true,
      ...(defaultCountry ? { defaultCountry } : {}),
    }),
  );

  app.get('/', (req, res) => res.redirect(req.user ? '/account' : SIGN_IN));

  app.get('/account', requireLogin, (req, res) => {
    res.send(accountPage({ user: req.user, showRiskReasons: demo }));
  });

  // The verdict's reasons pick the wording ("we could not check" or "looks unusual"); the page
  // never names them. A block body: the guard must not get send()'s return value.
  const refused = (req, res, _next, verdict) => {
    res.status(403).send(refusedPage({ user: req.user, action: verdict.action, cause: riskCause(verdict) }));
  };
  app.get('/payments', requireLogin, requireLowRisk({ onChallenge: refused, onBlock: refused }), (req, res) => {
    res.send(paymentsPage({ user: req.user }));
  });

  // "Sign out", or "Sign in again" (with returnTo: the page to go back to after the new sign-in).
  app.post('/logout', express.urlencoded({ extended: false, limit: '2kb' }), (req, res, next) => {
    const returnTo = req.body?.returnTo;
    req.logout((err) => {
      if (err) return next(err);
      // The new, empty session; left empty, the cookie is cleared.
      if (isSafeLocalPath(returnTo)) req.session.returnTo = returnTo;
      res.redirect(303, SIGN_IN);
    });
  });

  app.use((req, res) => res.status(404).send(errorPage({ status: 404, user: req.user })));

  // Never a stack trace: a short page, and one log line (the path only: a query may hold a code).
  app.use((err, req, res, _next) => {
    const status = Number.isInteger(err.status) && err.status >= 400 && err.status < 600 ? err.status : 500;
    if (status >= 500) log(`${req.method} ${req.path} failed: ${err.name ?? 'Error'}: ${err.message}`);
    if (res.headersSent) return res.end();
    res.status(status).send(errorPage({ status, user: req.user }));
  });

  return {
    app,
    strategy,
    async close() {
      await strategy.client.close();
    },
  };
}

/**
 * Listens first (port 0 picks a free port), then builds the app with the callback URL of the
 * address it got. With `fallbackToFreePort`, a busy port is replaced by a free one.
 *
 * @returns {Promise<{ url: string, server: import('node:http').Server, app: import('express').Express,
 *   strategy: MagicLinkStrategy, portWasBusy: boolean, close(): Promise<void> }>}
 */
export async function startApp({
  port = 0,
  host = '127.0.0.1',
  fallbackToFreePort = false,
  callbackUrl,
  ...appOptions
}) {
  const server = createServer();
  let portWasBusy = false;
  try {
    await listen(server, port, host);
  } catch (err) {
    if (err.code !== 'EADDRINUSE' || !fallbackToFreePort) throw err;
    portWasBusy = true;
    await listen(server, 0, host);
  }
  const address = `http://${host}:${server.address().port}`;
  const created = createApp({ ...appOptions, callbackUrl: callbackUrl ?? `${address}/auth/callback` });
  server.on('request', created.app);
  return {
    ...created,
    // The origin people open must be the callback's: the session cookie is bound to its host.
    url: callbackUrl ? new URL(callbackUrl).origin : address,
    server,
    portWasBusy,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
      await created.close();
    },
  };
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Signed-in visitors only; others go to the sign-in page, and come back here once signed in. */
function requireLoginAt(signIn) {
  return function requireLogin(req, res, next) {
    if (!req.user) {
      if ((req.method === 'GET' || req.method === 'HEAD') && isSafeLocalPath(req.originalUrl)) {
        req.session.returnTo = req.originalUrl;
      }
      return res.redirect(signIn);
    }
    // Account pages are personal: no cache may keep them.
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

// The app's own pages: one inline stylesheet, no script, forms post to this site only. The
// package's pages send their own headers (the waiting page's one script is allowed by its hash).
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function securityHeaders(_req, res, next) {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  next();
}
