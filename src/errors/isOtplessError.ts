import type { OtplessErrorCode } from './codes.js';
import type { OtplessApiError } from './OtplessApiError.js';
import { OtplessError } from './OtplessError.js';
import type { OtplessInputError } from './OtplessInputError.js';
import type { OtplessNetworkError } from './OtplessNetworkError.js';
import type { OtplessRequestError } from './OtplessRequestError.js';
import type { OtplessResponseError } from './OtplessResponseError.js';
import type { OtplessSetupError } from './OtplessSetupError.js';
import type { OtplessStateError } from './OtplessStateError.js';
import type { OtplessTimeoutError } from './OtplessTimeoutError.js';

/**
 * Every error class of the package, as a union discriminated by `code`: no two classes share a
 * code, so `switch (err.code)` narrows to the class.
 *
 * @example
 * if (isOtplessError(err)) switch (err.code) {
 *   case 'RATE_LIMITED': return res.set('Retry-After', String(err.retryAfterSeconds)).sendStatus(429);
 *   case 'TIMEOUT': return log.warn(`${err.endpoint} took over ${err.timeoutMs} ms`);
 * }
 */
export type AnyOtplessError =
  | OtplessInputError
  | OtplessApiError
  | OtplessTimeoutError
  | OtplessNetworkError
  | OtplessResponseError
  | OtplessStateError
  | OtplessSetupError
  | OtplessRequestError;

/** The error class behind each code, for narrowing: the class of `AnyOtplessError` whose codes include it. */
export type OtplessErrorByCode = {
  [C in OtplessErrorCode]: AnyOtplessError extends infer E
    ? E extends { code: infer K }
      ? C extends K
        ? E
        : never
      : never
    : never;
};

/**
 * Is `err` an error of this package (optionally with the given `code`)? The same as
 * `err instanceof OtplessError` and a look at `code`, which also hold across two copies of the
 * package in one app; narrows to the union of every class, or to the class of `code`.
 *
 * @example
 * catch (err) {
 *   if (isOtplessError(err, 'API_ERROR') && err.status === 429) return retryLater();
 *   if (isOtplessError(err)) log.warn(err.code, err.message);
 * }
 */
export function isOtplessError<C extends OtplessErrorCode>(err: unknown, code: C): err is OtplessErrorByCode[C];
export function isOtplessError(err: unknown): err is AnyOtplessError;
export function isOtplessError(err: unknown, code?: OtplessErrorCode): boolean {
  return err instanceof OtplessError && (code === undefined || err.code === code);
}
