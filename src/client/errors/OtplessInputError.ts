import { OtplessError } from './OtplessError.js';

/**
 * An argument was rejected before any request was sent. `field` names it
 * (e.g. `email`, `mobileNumber`, `expiry`, `redirectUri`, `code`, `token`, `sessionToken`).
 *
 * @example
 * if (isOtplessError(err, 'INVALID_INPUT')) res.status(400).send(`check ${err.field}`)
 */
export class OtplessInputError extends OtplessError {
  declare readonly code: 'INVALID_INPUT';
  /** The offending argument or field. Its value is never repeated in the message. */
  readonly field: string;

  constructor(field: string, message: string) {
    super('INVALID_INPUT', message);
    this.field = field;
  }
}

Object.defineProperty(OtplessInputError.prototype, 'name', {
  value: 'OtplessInputError',
  writable: true,
  configurable: true,
});
