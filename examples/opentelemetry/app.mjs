// The smallest app with telemetry: the quick start (the one mount), plus OpenTelemetry wired to
// the package's events. Exporters are the app's choice; the test uses in-memory ones.
import express from 'express';
import session from 'express-session';
import { Passport } from 'passport';
import { MagicLinkStrategy, magicLinkRoutes, requireLowRisk } from 'passport-otpless';
import { instrumentPassportOtpless } from './instrument.mjs';

/**
 * @param {{ otpless: object, callbackUrl: string, sessionSecret: string,
 *   tracer: import('@opentelemetry/api').Tracer, meter: import('@opentelemetry/api').Meter }} options
 */
export function createApp({ otpless, callbackUrl, sessionSecret, tracer, meter }) {
  const stopTelemetry = instrumentPassportOtpless({ tracer, meter });
  const passport = new Passport();
  const strategy = new MagicLinkStrategy({ ...otpless, callbackUrl, enrich: ['secureInfo'] }, async (profile) => ({
    id: profile.id,
  }));
  passport.use(strategy);
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user, done) => done(null, user));

  const app = express();
  app.use(session({ secret: sessionSecret, resave: false, saveUninitialized: false }));
  app.use(passport.session());
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me' }));
  app.get('/me', requireLowRisk(), (req, res) => res.json(req.user));
  return {
    app,
    async close() {
      stopTelemetry();
      await strategy.client.close();
    },
  };
}
