import { createServer } from 'node:http';
import { RedisStore } from 'connect-redis';
import express from 'express';
import session from 'express-session';
import { Passport } from 'passport';
import { createClient } from 'redis';
import {
  MagicLinkStrategy,
  magicLinkRoutes,
  OtplessRequestError,
  readLoginRecord,
  requireLowRisk,
} from 'passport-otpless';

/**
 * One app instance with its sessions and the strategy's state in Redis. Start as many as you
 * like behind one address: a link asked for on one instance can come back to another, since
 * the session (with the pending link request, and later the login), the cross-device flows,
 * the used-token marks and the send limits all live in Redis, not in the process.
 *
 * @param {object} options
 * @param {{ clientId: string, clientSecret: string, authUrl?: string, userAuthUrl?: string }} options.otpless
 * @param {string} options.callbackUrl The public callback URL, the same for every instance.
 * @param {string} options.redisUrl Such as `redis://127.0.0.1:6379`.
 * @param {string} options.sessionSecret Signs the session id cookie; the same for every instance.
 * @param {string} [options.instance] A name shown in the `X-Instance` header and on /me.
 * @param {(line: string) => void} [options.log] Where Redis connection errors go. Default `console.error`.
 * @returns {Promise<{ app: import('express').Express, strategy: MagicLinkStrategy, close(): Promise<void> }>}
 */
export async function createApp({
  otpless,
  callbackUrl,
  redisUrl,
  sessionSecret,
  instance = 'app',
  log = console.error,
}) {
  const redis = createClient({ url: redisUrl });
  // Without a listener a lost connection would crash the process; the client reconnects itself.
  redis.on('error', (err) => log(`${instance}: redis: ${err.message}`));
  await redis.connect();

  const strategy = new MagicLinkStrategy(
    // `store`: cross-device flows, used tokens and send limits in the same Redis, so every
    // instance sees them (a phone approving on B, the laptop polling A).
    { ...otpless, callbackUrl, enrich: ['validateToken', 'secureInfo'], store: redis, storePrefix: 'example:otpless:' },
    async (profile) => ({
      id: profile.id,
      email: profile.emails.find((e) => e.verified)?.value,
      phone: profile.phoneNumbers.find((p) => p.verified)?.value,
    }),
  );
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user, done) => done(null, user));

  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.setHeader('X-Instance', instance);
    next();
  });
  app.use(
    session({
      name: 'example.sid',
      secret: sessionSecret,
      store: new RedisStore({ client: redis, prefix: 'example:sess:' }),
      resave: false,
      // Nothing is stored for visitors who never ask for a link.
      saveUninitialized: false,
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: new URL(callbackUrl).protocol === 'https:',
        maxAge: 8 * 60 * 60 * 1000,
      },
    }),
  );
  app.use(passport.session());

  // The whole login on every instance: the sign-in page, the send, the waiting page, the status
  // and the callback (GET for the link, POST for the phone's approval), from callbackUrl's path.
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me' }));
  app.get('/', (_req, res) => res.redirect(new URL('sign-in', callbackUrl).pathname));

  app.get('/me', (req, res) => {
    if (!req.user) return res.status(401).json({ error: { code: 'UNAUTHENTICATED' }, instance });
    res.json({ instance, user: req.user, risk: readLoginRecord(req)?.risk?.action ?? null });
  });

  // The session is server-side, so the strategy kept the login's token there: signals older
  // than five minutes are fetched again through secure-info before the guard decides.
  app.get('/payments', requireLowRisk({ client: strategy.client, maxAgeMs: 5 * 60_000 }), (req, res) => {
    res.json({ instance, payments: [], risk: req.risk.action, refreshed: req.risk.refreshed });
  });

  app.post('/logout', (req, res, next) => {
    req.logout((err) => (err ? next(err) : res.redirect(303, '/')));
  });

  app.use((err, _req, res, _next) => {
    const status = Number.isInteger(err.status) && err.status >= 400 && err.status < 600 ? err.status : 500;
    res.status(status).json({
      error: {
        code: err.code ?? 'INTERNAL',
        message: status < 500 || err instanceof OtplessRequestError ? err.message : 'Something went wrong.',
      },
    });
  });

  return {
    app,
    strategy,
    async close() {
      await strategy.client.close();
      await redis.quit();
    },
  };
}

/** Listens on `port` (0: a free one) and returns the server with its `http://host:port` address. */
export function listen(port = 0, host = '127.0.0.1') {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({ server, url: `http://${host}:${server.address().port}` });
    });
  });
}
