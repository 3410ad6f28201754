import { OtplessError } from '../client/index.js';

/**
 * The app is wired up wrongly (a middleware missing before ours). Status 500: it is never
 * the visitor's fault, and the message names what to add.
 *
 * @example
 * // "send() needs a body parser before it: add app.use(express.urlencoded({ extended: false })) ..."
 */
export class OtplessSetupError extends OtplessError {
  declare readonly code: 'SETUP_ERROR';
  /** What is missing, e.g. 'MISSING_SESSION', 'MISSING_BODY_PARSER'. */
  readonly reason: string;
  /** HTTP status for an error handler: always 500. */
  readonly status = 500;

  constructor(reason: string, message: string) {
    super('SETUP_ERROR', message);
    this.reason = reason;
  }

  static missingSession(): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_SESSION',
      'passport-otpless needs a session before this route: add app.use(session({ ... })) from express-session, ' +
        'or app.use(cookieSession({ ... })) followed by app.use(sessionCompat()). ' +
        'With crossDevice: true the strategy works without one.',
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

Object.defineProperty(OtplessSetupError.prototype, 'name', {
  value: 'OtplessSetupError',
  writable: true,
  configurable: true,
});
