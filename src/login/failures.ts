import { CALLBACK_FAILURE_STATUS } from '../errors/callbackCodes.js';
import type { CallbackFailure, CallbackFailureCode } from '../errors/callbackCodes.js';
import { CLIENT_ERROR_CODES } from '../errors/codes.js';
import type { RequestErrorCode } from '../errors/codes.js';
import { isOtplessError, OtplessRequestError } from '../errors/index.js';
import { en } from '../web/messages/en.js';
import {
  CREDENTIAL_ERROR_CODES,
  EXPIRED_ERROR_CODES,
  RATE_LIMIT_ERROR_CODES,
  SERVICE_ERROR_CODES,
} from '../wire/serviceErrors.js';
import { warnOnce } from '../errors/warnings.js';

/**
 * Every way a callback can refuse a login (src/errors/callbackCodes.ts), with its status and a
 * message a person understands: the catalogue's English `failure.<CODE>` (src/web/messages/en.ts),
 * written there only.
 */
export const CALLBACK_FAILURES = Object.fromEntries(
  (Object.keys(CALLBACK_FAILURE_STATUS) as CallbackFailureCode[]).map((code) => [
    code,
    { status: CALLBACK_FAILURE_STATUS[code], message: en[`failure.${code}`] },
  ]),
) as { readonly [C in CallbackFailureCode]: { readonly status: number; readonly message: string } };

/**
 * The challenge object and status to hand to Passport's `fail`; the message in the person's
 * language when `translate` gives it (the catalogue's `failure.<CODE>`, src/web/messages/).
 */
export function failure(
  code: CallbackFailureCode,
  translate?: (key: `failure.${CallbackFailureCode}`) => string,
): { challenge: CallbackFailure; status: number } {
  const { status, message } = CALLBACK_FAILURES[code];
  return { challenge: { code, message: translate ? translate(`failure.${code}`) : message }, status };
}

const INVALID_PHONE_ERROR_CODE = SERVICE_ERROR_CODES.invalidPhone;
const INVALID_EMAIL_ERROR_CODE = SERVICE_ERROR_CODES.invalidEmail;
/** `message` labels of the real error bodies ("Access blocked", "Expired"), compared in lower case. */
const ACCESS_BLOCKED = 'access blocked';
const EXPIRED = 'expired';

interface ApiErrorFields {
  endpoint: string;
  status: number;
  errorCode: string | undefined;
  serviceMessage: string | undefined;
}

/** The fields of an API_ERROR the mapping reads; undefined for any other error. */
function apiFields(err: unknown): ApiErrorFields | undefined {
  return isOtplessError(err, 'API_ERROR') ? err : undefined;
}

function labelOf(f: ApiErrorFields): string | undefined {
  return f.serviceMessage?.trim().toLowerCase();
}

function isExpired(f: ApiErrorFields): boolean {
  return (f.errorCode !== undefined && EXPIRED_ERROR_CODES.has(f.errorCode)) || labelOf(f) === EXPIRED;
}

/**
 * True when the service refused this app itself: wrong, empty or disallowed credentials. It is
 * the operator's problem, never the visitor's: a 401/403 with errorCode 7002, 7012, 7019 or
 * 7026, or with the message "Access blocked", or a 401 without any errorCode (the documented
 * 401 of verify-code has none, and every call carries the credentials). An expiry (7301 or
 * "Expired") is not one: the visitor starts again.
 *
 * @example
 * if (isCredentialProblem(err)) log.error('check OTPLESS_CLIENT_ID / OTPLESS_CLIENT_SECRET');
 */
export function isCredentialProblem(err: unknown): boolean {
  const f = apiFields(err);
  if (!f || (f.status !== 401 && f.status !== 403)) return false;
  if (f.errorCode !== undefined && CREDENTIAL_ERROR_CODES.has(f.errorCode)) return true;
  if (isExpired(f)) return false;
  return labelOf(f) === ACCESS_BLOCKED || (f.status === 401 && f.errorCode === undefined);
}

/** True when the service says it is rate limiting us (HTTP 429, or one of its codes 7020-7024). */
function isRateLimited(f: ApiErrorFields): boolean {
  return f.status === 429 || (f.errorCode !== undefined && RATE_LIMIT_ERROR_CODES.has(f.errorCode));
}

/**
 * True when the service refused the code or token itself (invalid, expired, already used):
 * the person's problem, answered with `fail`. Refused credentials, rate limits and outages
 * are the app's or the service's problem, answered with `error`.
 *
 * @example
 * catch (err) { if (isRejectedByService(err)) return this.refuse('CODE_REJECTED'); throw err; }
 */
export function isRejectedByService(err: unknown): boolean {
  const f = apiFields(err);
  if (!f || isCredentialProblem(err) || isRateLimited(f)) return false;
  // Some flows answer errors with HTTP 200: an error code on a 2xx is judged like a 400.
  const errorOn2xx = f.status >= 200 && f.status < 300 && f.errorCode !== undefined;
  return isExpired(f) || errorOn2xx || f.status === 400 || f.status === 401 || f.status === 404 || f.status === 410;
}

/**
 * The HTTP status our route answers when a call to the service failed: 400 for input the
 * service refused, 504 for a timeout, 503 when it is rate limiting us, overloaded or down, 502
 * otherwise (including refused credentials: a misconfigured app is not the visitor's mistake).
 *
 * @example statusForServiceError(err) // 502 for a 401 "Access blocked"
 */
export function statusForServiceError(err: unknown): number {
  if (isOtplessError(err, 'INVALID_ARGUMENT')) return 400;
  if (isOtplessError(err, 'TIMEOUT')) return 504;
  const f = apiFields(err);
  if (f) {
    if (isCredentialProblem(err)) return 502;
    if (isRateLimited(f) || f.status === 503) return 503;
    // The service refused our callback URL as redirect_uri: the operator's setup, not the visitor's input.
    if (f.errorCode === SERVICE_ERROR_CODES.invalidRedirectUri) {
      warnOnce(
        'OTPLESS_REDIRECT_URI',
        'OTPless refused the callback URL as redirect_uri (errorCode 7108): register callbackUrl as an allowed ' +
          'redirect URI of this OTPless app; until then every send fails with a 502.',
      );
      return 502;
    }
    if (f.status === 400 || f.status === 422) return 400;
  }
  return 502;
}

/**
 * Which contact the service refused, by its error code: 7104 (invalid e-mail) is the e-mail,
 * 7102 (invalid phone number) the mobile number; undefined for anything else. For the send
 * route, to point the visitor at the field to correct.
 *
 * @example
 * const field = serviceFieldOf(err) === 'email' ? emailField : mobileField;
 */
export function serviceFieldOf(err: unknown): 'email' | 'mobile' | undefined {
  const errorCode = apiFields(err)?.errorCode;
  // A refused address or e-mail channel (7104, 7105); a refused number or phone channel (7102, 7103).
  if (errorCode === INVALID_EMAIL_ERROR_CODE || errorCode === SERVICE_ERROR_CODES.invalidEmailChannel) return 'email';
  if (errorCode === INVALID_PHONE_ERROR_CODE || errorCode === SERVICE_ERROR_CODES.invalidPhoneChannel) return 'mobile';
  return undefined;
}

/**
 * Warns once when `err` says the service refused this app's credentials. For failures that are
 * dropped rather than answered (user info is optional), so the operator still hears of them.
 */
export function warnIfCredentials(err: unknown): void {
  const f = apiFields(err);
  if (f && isCredentialProblem(err)) warnCredentials(f);
}

/** Warns once about refused credentials: what to check, from the error's endpoint, status and code only. */
function warnCredentials(f: ApiErrorFields): void {
  const code = f.errorCode === undefined ? '' : `, errorCode ${f.errorCode}`;
  warnOnce(
    'OTPLESS_CREDENTIALS',
    `OTPless refused this app's credentials (${f.endpoint}: HTTP ${f.status}${code}). ` +
      'Check clientId and clientSecret, and that this OTPless app may use this call; ' +
      'until then every sign-in fails with a 502.',
  );
}

/** True for the errors `OtplessClient` throws. */
export function isClientError(err: unknown): boolean {
  return CLIENT_ERROR_CODES.some((code) => isOtplessError(err, code));
}

// The error page's own words for a service failure, so a JSON client and a page read the same.
const SERVICE_FAILURE_MESSAGE: string = en['error.service'];

/**
 * Wraps a failed call to the service in the error our route answers with: the status is
 * ours (502/503/504), the client's error with the details stays as `cause`. Refused
 * credentials also warn the operator, once per process (`warnOnce`).
 */
export function serviceFailure(err: unknown, message = SERVICE_FAILURE_MESSAGE): OtplessRequestError {
  warnIfCredentials(err);
  warnIfUnreachable(err);
  const status = statusForServiceError(err);
  if (isOtplessError(err, 'NOT_SUCCESS')) {
    warnOnce(
      'OTPLESS_NOT_SUCCESS',
      `OTPless ${err.endpoint} answered with status "${err.serviceStatus}" instead of SUCCESS; such answers are ` +
        'refused (502 SERVICE_NOT_SUCCESS). Subscribe to passport-otpless:service:not-success to count them.',
    );
  }
  const code: RequestErrorCode = isOtplessError(err, 'NOT_SUCCESS')
    ? 'SERVICE_NOT_SUCCESS'
    : status === 504
      ? 'SERVICE_TIMEOUT'
      : status === 503
        ? 'SERVICE_UNAVAILABLE'
        : 'SERVICE_ERROR';
  return new OtplessRequestError(
    status >= 500 ? status : 502,
    code,
    message,
    undefined,
    err instanceof Error ? err : undefined,
  );
}

/** The service could not be reached (a timeout, a network error): told once, whichever route met it. */
function warnIfUnreachable(err: unknown): void {
  if (!isOtplessError(err, 'TIMEOUT') && !isOtplessError(err, 'NETWORK')) return;
  warnOnce(
    'OTPLESS_SERVICE_UNREACHABLE',
    'passport-otpless: the OTPless service could not be reached (a timeout or a network error): sign-ins fail ' +
      'until it can. Check authUrl/userAuthUrl and the network from this host; `npx otpless-check` tests both.',
  );
}
