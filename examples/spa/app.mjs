import { readFile } from 'node:fs/promises';
import cookieSession from 'cookie-session';
import express from 'express';
import { Passport } from 'passport';
import { MagicLinkStrategy, magicLinkRoutes, readLoginRecord, sessionCompat } from 'passport-otpless';

const PAGE = new URL('./index.html', import.meta.url);

/**
 * A single-page app and its JSON API (see docs/single-page-apps.md) on the one mount,
 * `magicLinkRoutes()`. Every call asks for JSON, the phone's side of a cross-device login
 * included:
 *
 * - `POST /api/auth/magic-link { email }` -> `{ sent, match, expiresAt }`: show `match`.
 * - The link opens `/signin/finish?flow=...&code=...`, a page of the SPA (the app's own GET: it
 *   spends nothing); the page POSTs both to the same path. In the browser that asked:
 *   `200 { signedIn: true, redirect }`. On another device (the phone):
 *   `202 { approval: 'required', askedBy }`, then `{ code, flow, match }` with the number typed ->
 *   `200 { approval: 'approved' }`, or `{ code, flow, decision: 'deny' }`.
 * - The asking browser polls `GET /api/auth/status`; once `approved` it POSTs `{}` to
 *   `/signin/finish` -> `200 { signedIn: true, redirect }`.
 * - A frontend-SDK token: `POST /signin/finish { token }` -> `200 { signedIn: true, redirect }`.
 * - A refusal: `{ error: { code, message } }` with its status. `GET /api/me` says who is signed in.
 *
 * @param {object} options
 * @param {{ clientId: string, clientSecret: string, authUrl?: string, userAuthUrl?: string }} options.otpless
 * @param {string} options.origin Where the app is served, such as `https://app.example.com`.
 * @param {string[]} options.sessionKeys Secrets that sign the session cookie.
 * @param {import('passport-otpless').SendLimitsOptions | false} [options.limits]
 * @param {(line: string) => void} [options.log] Where unexpected errors go. Default `console.error`.
 */
export function createApp({ otpless, origin, sessionKeys, limits, log = console.error }) {
  const strategy = new MagicLinkStrategy(
    {
      ...otpless,
      // The link opens a page of the SPA: its GET is the app's, only the page's POST spends the code.
      callbackUrl: `${origin}/signin/finish`,
      ...(limits !== undefined ? { limits } : {}),
    },
    async (profile) => ({ id: profile.id, email: profile.emails.find((e) => e.verified)?.value ?? null }),
  );
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user, done) => done(null, user));

  const app = express();
  app.disable('x-powered-by');
  app.use(
    cookieSession({
      name: 'spa.session',
      keys: sessionKeys,
      httpOnly: true,
      sameSite: 'lax',
      secure: origin.startsWith('https:'),
      maxAge: 8 * 60 * 60 * 1000,
    }),
  );
  app.use(sessionCompat());
  app.use(passport.session());

  // The SPA itself: one page for every route of the frontend. Registered before the mount, so a
  // GET of the link (a mail scanner's included) gets the page and never reaches the callback.
  const page = (_req, res, next) =>
    readFile(PAGE, 'utf8').then((html) => res.type('html').set('Cache-Control', 'no-store').send(html), next);
  app.get(['/', '/signin/finish'], page);

  // The whole login: POST /api/auth/magic-link, GET /api/auth/status, POST /signin/finish (the
  // page's { code, flow }, {} once approved, or { token }). The SPA's page is the sign-in page.
  app.use(
    magicLinkRoutes(strategy, {
      passport,
      successRedirect: '/',
      paths: { send: '/api/auth/magic-link', status: '/api/auth/status' },
      pages: { signIn: '/' },
    }),
  );

  app.get('/api/me', (req, res) =>
    req.user
      ? res.json({ user: req.user, verified: readLoginRecord(req)?.verified ?? [] })
      : res.status(401).json({ error: { code: 'UNAUTHENTICATED' } }),
  );
  app.post('/api/auth/logout', (req, res, next) => req.logout((err) => (err ? next(err) : res.status(204).end())));

  app.use('/api', (_req, res) => res.status(404).json({ error: { code: 'NOT_FOUND' } }));
  // Errors as JSON, never a stack trace; the package's errors carry a message meant for people.
  app.use((err, req, res, _next) => {
    const status = Number.isInteger(err.status) && err.status >= 400 && err.status < 600 ? err.status : 500;
    if (status >= 500) log(`${req.method} ${req.path} failed: ${err.name ?? 'Error'}: ${err.message}`);
    if (typeof err.toJSON === 'function') return res.status(status).json(err.toJSON());
    res.status(status).json({ error: { code: status < 500 ? 'BAD_REQUEST' : 'INTERNAL' } });
  });

  return { app, strategy, close: () => strategy.client.close() };
}
