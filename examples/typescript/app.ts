import cookieSession from 'cookie-session';
import express from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import { Passport } from 'passport';
// In your app: from 'passport-otpless'. The example imports the source so that the project's
// typecheck and tests need no build.
import { MagicLinkStrategy, magicLinkRoutes, requireLowRisk, sessionCompat } from '../../src/index.js';
import type { MagicLinkProfile, OtplessClientOptions } from '../../src/index.js';

/**
 * The user this app keeps in its session, built from the `MagicLinkProfile`. Only `id` is
 * required, so code that logs in other kinds of users (`req.logIn({ id })`) still typechecks.
 */
export interface AppUser extends Pick<MagicLinkProfile, 'id'> {
  displayName?: string;
  email?: string;
  /** E.164, as the profile gives every number. */
  phone?: MagicLinkProfile['phoneNumbers'][number]['value'];
  /** Identity types verified at this login. */
  verified?: Array<MagicLinkProfile['identities'][number]['type']>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // Passport types `req.user` as `Express.User`: from here on it is an AppUser everywhere.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends AppUser {}
  }
}

/** The verify function, typed end to end: a profile in, the session's user out. */
export async function toAppUser(profile: MagicLinkProfile): Promise<AppUser> {
  const user: AppUser = {
    id: profile.id,
    verified: profile.identities.filter((i) => i.verified).map((i) => i.type),
  };
  if (profile.displayName) user.displayName = profile.displayName;
  const email = profile.emails.find((e) => e.verified)?.value;
  if (email) user.email = email;
  const phone = profile.phoneNumbers.find((p) => p.verified)?.value;
  if (phone) user.phone = phone;
  return user;
}

export interface AppOptions {
  otpless: Pick<OtplessClientOptions, 'clientId' | 'clientSecret' | 'authUrl' | 'userAuthUrl'>;
  callbackUrl: string;
  sessionKeys: string[];
}

export interface CreatedApp {
  app: Express;
  strategy: MagicLinkStrategy;
  close(): Promise<void>;
}

/** A small app: the one mount, `/me` (typed `req.user`) and a guarded `/payments`. */
export function createApp({ otpless, callbackUrl, sessionKeys }: AppOptions): CreatedApp {
  const strategy = new MagicLinkStrategy({ ...otpless, callbackUrl, enrich: ['validateToken', 'userInfo'] }, toAppUser);
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser<AppUser>((user, done) => done(null, user));
  passport.deserializeUser<AppUser>((user, done) => done(null, user));

  const app = express();
  app.use(cookieSession({ name: 'ts.session', keys: sessionKeys, httpOnly: true, sameSite: 'lax' }));
  app.use(sessionCompat());
  app.use(passport.session());

  // The whole login: sign-in and waiting pages, send, status, callback (GET and POST).
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me' }));

  app.get('/me', (req: Request, res: Response) => {
    if (!req.user) return res.status(401).json({ error: { code: 'UNAUTHENTICATED' } });
    // No cast: `req.user` is an AppUser, so `email` and `verified` are known here.
    const { id, displayName, email, phone, verified = [] } = req.user;
    res.json({ id, displayName, email, phone, verified, canSms: verified.includes('MOBILE') });
  });

  // `req.risk` is typed by passport-otpless's own augmentation of Express's Request.
  app.get('/payments', requireLowRisk(), (req: Request, res: Response) => {
    res.json({ risk: req.risk?.action, stale: req.risk?.stale });
  });

  app.use((err: Error & { status?: number; code?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = err.status && err.status >= 400 && err.status < 600 ? err.status : 500;
    res.status(status).json({ error: { code: err.code ?? (status < 500 ? 'REFUSED' : 'INTERNAL') } });
  });

  return { app, strategy, close: () => strategy.client.close() };
}
