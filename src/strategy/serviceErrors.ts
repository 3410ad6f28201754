import { isOtplessError } from '../client/index.js';
import { OtplessRequestError } from './requestError.js';
import type { RequestFailureReason } from './requestError.js';

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
    if (status === 429 || status === 503) return 503;
  }
  return 502;
}

const CLIENT_ERROR_CODES = ['INVALID_INPUT', 'API_ERROR', 'TIMEOUT', 'NETWORK', 'BAD_RESPONSE'] as const;

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
