import type { OtplessApiError } from './OtplessApiError.js';
import { OTPLESS_ERROR_BRAND, type OtplessError } from './OtplessError.js';
import type { OtplessInputError } from './OtplessInputError.js';
import type { OtplessNetworkError } from './OtplessNetworkError.js';
import type { OtplessResponseError } from './OtplessResponseError.js';
import type { OtplessTimeoutError } from './OtplessTimeoutError.js';

/** The error class behind each code, for narrowing. */
export interface OtplessErrorByCode {
  INVALID_INPUT: OtplessInputError;
  API_ERROR: OtplessApiError;
  TIMEOUT: OtplessTimeoutError;
  NETWORK: OtplessNetworkError;
  BAD_RESPONSE: OtplessResponseError;
}

/**
 * Is `err` an error of this package (optionally with the given `code`)? Works across two copies
 * of the package loaded in one app, where `instanceof` does not: it checks a `Symbol.for` brand
 * and the `code` string.
 *
 * @example
 * catch (err) {
 *   if (isOtplessError(err, 'API_ERROR') && err.status === 429) return retryLater();
 *   if (isOtplessError(err)) log.warn(err.code, err.message);
 * }
 */
export function isOtplessError<C extends keyof OtplessErrorByCode>(err: unknown, code: C): err is OtplessErrorByCode[C];
export function isOtplessError(err: unknown, code?: string): err is OtplessError;
export function isOtplessError(err: unknown, code?: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { [OTPLESS_ERROR_BRAND]?: unknown; code?: unknown };
  if (e[OTPLESS_ERROR_BRAND] !== true || typeof e.code !== 'string') return false;
  return code === undefined || e.code === code;
}
