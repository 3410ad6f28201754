import { brandClass } from './brand.js';
import { OtplessError } from './OtplessError.js';

/**
 * An argument of a client call was rejected before any request was sent. `field` names it
 * (e.g. `email`, `mobileNumber`, `expiry`, `redirectUri`, `code`, `token`, `sessionToken`).
 *
 * @example
 * if (err instanceof OtplessInputError) console.error(`check ${err.field}`)
 */
export class OtplessInputError extends OtplessError {
  declare readonly code: 'INVALID_ARGUMENT';
  /** The offending argument or field. Its value is never repeated in the message. */
  readonly field: string;

  constructor(field: string, message: string) {
    super('INVALID_ARGUMENT', message);
    this.field = field;
  }
}

brandClass(OtplessInputError, 'OtplessInputError');
