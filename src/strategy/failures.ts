import { CLIENT_ERROR_CODES, isOtplessError, OtplessRequestError } from '../errors.js';
import type { RequestFailureReason } from '../errors.js';

/**
 * Every way a callback can refuse a login, with the status and a message a person
 * understands. They reach Passport as `fail({ code, message }, status)`, so
 * `failureMessage`/`failureFlash` and custom callbacks see them.
 */
export const CALLBACK_FAILURES = {
  MISSING_CODE: {
    status: 400,
    message: 'This sign-in link is incomplete. Open the link from your message again, or ask for a new one.',
  },
  INVALID_CODE: { status: 400, message: 'This sign-in link is not valid. Ask for a new one.' },
  CODE_REJECTED: {
    status: 401,
    message: 'This sign-in link is invalid, has expired or was already used. Ask for a new one.',
  },
  TOKEN_REJECTED: { status: 401, message: 'Your sign-in could not be confirmed. Please sign in again.' },
  // After a login the session is new, so a link used here before looks like one from another
  // browser: the message covers both.
  WRONG_BROWSER: {
    status: 403,
    message:
      'This sign-in link cannot be used here: it was already used, or it was opened in another browser than the one where you asked for it. Ask for a new link in this browser.',
  },
  CROSS_SITE: { status: 403, message: 'This sign-in request did not come from this site.' },
  USER_REFUSED: { status: 401, message: 'Sign-in was refused.' },
} as const;

export type CallbackFailureCode = keyof typeof CALLBACK_FAILURES;

export interface CallbackFailure {
  code: CallbackFailureCode;
  message: string;
}

/** The challenge object and status to hand to Passport's `fail`. */
export function failure(code: CallbackFailureCode): { challenge: CallbackFailure; status: number } {
  const { status, message } = CALLBACK_FAILURES[code];
  return { challenge: { code, message }, status };
}

/** Error codes by which the service says our own credentials are wrong or missing. */
const CREDENTIAL_ERROR_CODES = new Set(['7002', '7012']);

interface ApiErrorFields {
  status?: number;
  errorCode?: string;
}

/**
 * True when the service refused the code or token itself (invalid, expired, already used):
 * the person's problem, answered with `fail`. Refused credentials, rate limits and outages
 * are the app's or the service's problem, answered with `error`.
 */
export function isRejectedByService(err: unknown): boolean {
  if (!isOtplessError(err, 'API_ERROR')) return false;
  const { status, errorCode } = err as ApiErrorFields;
  if (errorCode !== undefined && CREDENTIAL_ERROR_CODES.has(errorCode)) return false;
  return status === 400 || status === 401 || status === 404 || status === 410;
}

/**
 * The HTTP status our route answers when a call to the service failed: 400 for input the
 * service refused, 504 for a timeout, 503 when it is overloaded or down, 502 otherwise
 * (including refused credentials: a misconfigured app is not the visitor's mistake).
 */
export function statusForServiceError(err: unknown): number {
  if (isOtplessError(err, 'INVALID_INPUT')) return 400;
  if (isOtplessError(err, 'TIMEOUT')) return 504;
  if (isOtplessError(err, 'API_ERROR')) {
    const { status, errorCode } = err as ApiErrorFields;
    if (errorCode !== undefined && CREDENTIAL_ERROR_CODES.has(errorCode)) return 502;
    if (status === 400 || status === 422) return 400;
    // The service's own rate limits (429, errorCodes 7020-7024) are its outage to the visitor, never our RATE_LIMITED.
    if (status === 429 || status === 503 || (errorCode !== undefined && /^702[0-4]$/.test(errorCode))) return 503;
  }
  return 502;
}

/** True for the errors `OtplessClient` throws. */
export function isClientError(err: unknown): boolean {
  return CLIENT_ERROR_CODES.some((code) => isOtplessError(err, code));
}

const SERVICE_FAILURE_MESSAGE = 'Signing in is not possible right now. Please try again in a moment.';

/**
 * Wraps a failed call to the service in the error our route answers with: the status is
 * ours (502/503/504), the client's error with the details stays as `cause`.
 */
export function serviceFailure(err: unknown, message = SERVICE_FAILURE_MESSAGE): OtplessRequestError {
  const status = statusForServiceError(err);
  const reason: RequestFailureReason =
    status === 504 ? 'SERVICE_TIMEOUT' : status === 503 ? 'SERVICE_UNAVAILABLE' : 'SERVICE_ERROR';
  return new OtplessRequestError(
    status >= 500 ? status : 502,
    reason,
    message,
    undefined,
    err instanceof Error ? err : undefined,
  );
}
