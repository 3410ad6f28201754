import { createServer } from 'node:http';
import express from 'express';
import cookieSession from 'cookie-session';
import { Passport } from 'passport';
import { MagicLinkStrategy, requireLowRisk, sessionCompat } from 'passport-otpless';
import { isSafeLocalPath } from './localPath.mjs';
import { maskContact, splitContact } from './contact.mjs';
import { riskCause, toSessionUser } from './user.mjs';
import {
  accountPage,
  checkInboxPage,
  errorPage,
  linkFailedPage,
  paymentsPage,
  refusedPage,
  signInPage,
} from './views.mjs';

/**
 * Send limits on the emulator: loose enough to try every scenario of the dev inbox in a row
 * with one address (each needs a link of its own). Against the real service the library's
 * defaults apply (5 per destination and 20 per IP per 15 minutes): real messages cost money.
 */
export const EMULATOR_LIMITS = Object.freeze({
  perDestination: Object.freeze({ limit: 50, windowSeconds: 15 * 60 }),
  perIp: Object.freeze({ limit: 200, windowSeconds: 15 * 60 }),
});

/**
 * The example app: Express 5, cookie-session, Passport and `MagicLinkStrategy`.
 *
 * @param {object} options
 * @param {{ clientId: string, clientSecret: string, authUrl?: string, userAuthUrl?: string }} options.otpless
 *   Credentials, plus the emulator's URLs in demo mode (the real service's are the default).
 * @param {string} options.callbackUrl Absolute URL of `/auth/callback` as the browser reaches it.
 * @param {string[]} options.sessionKeys Secrets that sign the session cookie (newest first).
 * @param {string} [options.devInboxUrl] Demo mode: the emulator's dev inbox, linked from the pages.
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
  const demo = devInboxUrl ? { inboxUrl: devInboxUrl } : undefined;
  const form = { demo, defaultCountry };

  const strategy = new MagicLinkStrategy(
    {
      ...otpless,
      callbackUrl,
      enrich: ['validateToken', 'secureInfo', 'userInfo'],
      // Sends are limited per IP and per destination by the strategy itself (429 with Retry-After).
      ...(limits !== undefined ? { limits } : {}),
      ...(defaultCountry ? { defaultCountry } : {}),
    },
    // No user database here: the session keeps the small user object the pages show.
    async (profile) => toSessionUser(profile, { keepReasons: Boolean(demo) }),
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
      // cross-site POST, which keeps the forms below safe from cross-site requests.
      sameSite: 'lax',
      secure: new URL(callbackUrl).protocol === 'https:',
      maxAge: 8 * 60 * 60 * 1000,
    }),
  );
  // cookie-session lacks the regenerate()/save() Passport 0.6+ calls on login and logout.
  app.use(sessionCompat());
  app.use(passport.session());

  app.get('/', (req, res) => {
    if (req.user) return res.redirect('/account');
    // `?signed-out` after the sign-out button; a remembered page after requireLogin sent the visitor here.
    const signedOut = req.query['signed-out'] !== undefined;
    const returning = isSafeLocalPath(req.session?.returnTo);
    const notice = signedOut
      ? `You are signed out.${returning ? ' Sign in again to continue.' : ''}`
      : returning
        ? 'Sign in to continue.'
        : undefined;
    res.send(signInPage({ ...form, notice }));
  });

  app.post(
    '/auth/magic-link',
    express.urlencoded({ extended: false, limit: '2kb' }),
    (req, res, next) => {
      const contact = req.body?.contact;
      const parts = splitContact(contact);
      req.body = { ...req.body, ...parts };
      // For the next page only; masked, since a cookie session can be read by its holder.
      req.session.sentTo = maskContact(contact);
      req.session.sentVia = parts.mobile ? (req.body.via === 'SMS' ? 'SMS' : 'WHATSAPP') : 'EMAIL';
      next();
    },
    strategy.send({
      successRedirect: '/check-inbox',
      // The person picks WhatsApp or SMS for a number (the form's radio buttons).
      channelField: 'via',
      // Render the form again with the message next to the field and the text kept. A refused
      // send (RATE_LIMITED, 429) says how long to wait; send() has set Retry-After already.
      onError(err, req, res) {
        const input = err.reason === 'INVALID_INPUT';
        res.status(err.status).send(
          signInPage({
            value: req.body?.contact,
            via: req.body?.via,
            fieldError: input ? err.message : undefined,
            error: input ? undefined : err.message,
            ...form,
          }),
        );
      },
    }),
  );

  // The waiting page: shows the number to type on the phone, and goes on once it is approved.
  app.get('/auth/status', strategy.status());
  app.get('/waiting.js', (_req, res) => res.type('text/javascript').send(WAITING_SCRIPT));
  app.get('/check-inbox', async (req, res, next) => {
    try {
      const flow = await strategy.flowStatus(req);
      if (flow.status === 'approved') return res.redirect(303, '/auth/callback');
      // Signed in meanwhile in another tab of this browser (where the link opened): nothing waits here.
      if (flow.status === 'none' && req.user) return res.redirect(303, '/account');
      res.setHeader('Cache-Control', 'no-store');
      // The waiting script asks /auth/status: without connect-src its fetch is blocked (default-src 'none').
      res.setHeader('Content-Security-Policy', `${CSP}; script-src 'self'; connect-src 'self'`);
      res.send(checkInboxPage({ sentTo: req.session.sentTo, sentVia: req.session.sentVia, demo, flow }));
    } catch (err) {
      next(err);
    }
  });

  // GET: the link lands here (or the waiting page comes back once the phone approved).
  // POST: the approval form on the phone posts back to the same URL.
  app.all(['/auth/callback'], (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return next();
    // A custom callback, so a refused link gets a page with its reason and status.
    passport.authenticate(strategy.name, (err, user, info, status) => {
      if (err) return next(err);
      if (!user) {
        const message = info?.message ?? 'This sign-in link is not valid. Ask for a new one.';
        return res.status(status ?? 401).send(linkFailedPage({ message, user: req.user }));
      }
      req.logIn(user, (loginErr) => {
        if (loginErr) return next(loginErr);
        // Back to the page that sent the visitor to sign in, as Passport's successReturnToOrRedirect
        // does; the strategy keeps a safe returnTo across the session regeneration of the login.
        const returnTo = req.session.returnTo;
        delete req.session.returnTo;
        res.redirect(303, isSafeLocalPath(returnTo) ? returnTo : '/account');
      });
    })(req, res, next);
  });

  app.get('/account', requireLogin, (req, res) => {
    res.send(accountPage({ user: req.user, showRiskReasons: Boolean(demo) }));
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
      res.redirect(303, '/?signed-out');
    });
  });

  app.use((req, res) => res.status(404).send(errorPage({ status: 404, user: req.user })));

  // Never a stack trace: a short page, and one log line (the path only: a query may hold a code).
  app.use((err, req, res, _next) => {
    const status = Number.isInteger(err.status) && err.status >= 400 && err.status < 600 ? err.status : 500;
    if (status >= 500) log(`${req.method} ${req.path} failed: ${err.name ?? 'Error'}: ${err.message}`);
    if (res.headersSent) return res.end();
    // An entry too long for the form's parser: the form again, with the field named.
    if (err.type === 'entity.too.large' && req.path === '/auth/magic-link') {
      const fieldError = 'This is too long for an e-mail address or a mobile number. Enter one contact.';
      return res.status(413).send(signInPage({ fieldError, ...form }));
    }
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

/** Signed-in visitors only; others go to the sign-in form, which brings them back here afterwards. */
function requireLogin(req, res, next) {
  if (!req.user) {
    if ((req.method === 'GET' || req.method === 'HEAD') && isSafeLocalPath(req.originalUrl)) {
      req.session.returnTo = req.originalUrl;
    }
    return res.redirect('/');
  }
  // Account pages are personal: no cache may keep them.
  res.setHeader('Cache-Control', 'no-store');
  next();
}

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

// The waiting page's only script (served from this site, so the CSP allows it): asks
// /auth/status every second and goes to the callback once the phone approved.
const WAITING_SCRIPT = `(() => {
  const box = document.querySelector('[data-status-url]');
  if (!box) return;
  const tick = async () => {
    try {
      const res = await fetch(box.dataset.statusUrl, { headers: { accept: 'application/json' } });
      const { status } = await res.json();
      if (status === 'approved') return location.assign(box.dataset.doneUrl);
      if (status !== 'pending') return location.reload();
    } catch {}
    setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
})();
`;

function securityHeaders(_req, res, next) {
  // Pages have one inline stylesheet and no script; forms post to this site only.
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  next();
}
