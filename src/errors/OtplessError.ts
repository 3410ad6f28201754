import { brandClass } from './brand.js';
import type { OtplessErrorCode } from './codes.js';

/**
 * Base class of every error of this package; each subclass narrows `code` to its own. To narrow
 * on `code` alone, type the error as `AnyOtplessError` (what `isOtplessError(err)` gives).
 *
 * Messages, enumerable fields and `cause` never contain the client secret, a code or a token.
 *
 * @example
 * try { await client.verifyCode(code) }
 * catch (err) { if (err instanceof OtplessError) console.log(err.code) }
 */
export class OtplessError extends Error {
  /** Stable machine-readable code. */
  readonly code: OtplessErrorCode;

  constructor(code: OtplessErrorCode, message: string, options?: { cause?: Error }) {
    super(message, options);
    this.code = code;
  }
}

brandClass(OtplessError, 'OtplessError');
