import { brandClass } from './brand.js';
import type { SetupErrorCode } from './codes.js';
import { OtplessError } from './OtplessError.js';

/**
 * The app is wired up wrongly (a middleware missing before ours). `code` says what is missing;
 * status 500: it is never the visitor's fault, and the message names what to add.
 *
 * @example
 * // "send() needs a body parser before it: add app.use(express.urlencoded({ extended: false })) ..."
 */
export class OtplessSetupError extends OtplessError {
  declare readonly code: SetupErrorCode;
  /** HTTP status for an error handler: always 500. */
  readonly status = 500;

  constructor(code: SetupErrorCode, message: string) {
    super(code, message);
  }

  static missingSession(): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_SESSION',
      'passport-otpless needs a session before this route: add app.use(session({ ... })) from express-session, ' +
        'or app.use(cookieSession({ ... })) followed by app.use(sessionCompat()). ' +
        "Only with crossDevice: 'accept' do send() and the callback work without one (any browser that opens the link is then signed in).",
    );
  }

  /** A page the strategy answers itself needs the response, which Express links and Connect does not. */
  static missingResponse(what: string): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_RESPONSE',
      `${what} needs the response object: Express links it (req.res); on Connect, add app.use(sessionCompat()) ` +
        'after the session middleware; on Fastify, register otplessFastify().',
    );
  }

  /** On Fastify, the strategy reaches the reply only through the `otplessFastify()` plugin. */
  static missingFastifyPlugin(): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_RESPONSE',
      'On Fastify the magic-link callback needs its reply: register the plugin once, before the routes: ' +
        'await app.register(otplessFastify()).',
    );
  }

  /** Passport's successRedirect/failureRedirect call `res.redirect`, which Connect does not have. */
  static redirectWithoutExpress(): OtplessSetupError {
    return new OtplessSetupError(
      'REDIRECT_NEEDS_EXPRESS',
      "Passport answers successRedirect and failureRedirect with res.redirect, which Connect has not: on Connect call passport.authenticate('magic-link', " +
        '(err, user, info, status) => ...) with a callback that calls req.logIn(user, ...) and redirects itself (see docs/frameworks.md).',
    );
  }

  static missingBodyParser(): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_BODY_PARSER',
      'send() needs a body parser before it: add express.urlencoded({ extended: false }) for forms ' +
        'and/or express.json() for JSON, to the route or with app.use().',
    );
  }
}

brandClass(OtplessSetupError, 'OtplessSetupError');
