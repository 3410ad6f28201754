/** Stable codes of every error the client throws; match on these, not on messages. */
export type OtplessErrorCode =
  | 'INVALID_INPUT'
  | 'API_ERROR'
  | 'TIMEOUT'
  | 'NETWORK'
  | 'BAD_RESPONSE'
  // Raised by the strategy's routes, not by the client itself.
  | 'SETUP_ERROR'
  | 'REQUEST_FAILED';

/**
 * Marks errors of this package. `Symbol.for` so that two copies of the package loaded in one
 * app (each with its own classes) still recognise each other's errors in `isOtplessError`.
 */
export const OTPLESS_ERROR_BRAND: unique symbol = Symbol.for('passport-otpless.error');

/**
 * Base class of every error of this package. The client throws the five `OtplessErrorCode`s;
 * other parts of the package (the strategy) subclass it with codes of their own, so `code` is
 * a string here and narrowed by each subclass.
 *
 * Messages, enumerable fields and `cause` never contain the client secret, a code or a token.
 *
 * @example
 * try { await client.verifyCode(code) }
 * catch (err) { if (err instanceof OtplessError) console.log(err.code) }
 */
export class OtplessError extends Error {
  /** Stable machine-readable code. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: Error }) {
    super(message, options);
    this.code = code;
  }
}

// On the prototype, non-enumerable: shows up neither in JSON.stringify nor in util.inspect.
Object.defineProperty(OtplessError.prototype, OTPLESS_ERROR_BRAND, { value: true });
Object.defineProperty(OtplessError.prototype, 'name', { value: 'OtplessError', writable: true, configurable: true });
