import type { EndpointName } from '../wire/endpoints.js';
import { OtplessApiError, OtplessResponseError } from '../errors.js';
import { parseServiceError } from './errorBody.js';
import { type Check, describeMismatch, isRecord } from './shapes/check.js';

const NO_SECRETS = (): readonly string[] => [];

/**
 * Turns the text of a 2xx body into a checked result: `T`, or BAD_RESPONSE naming what did
 * not fit. A 2xx body that is the service's error shape instead of a result (some flows answer
 * errors with HTTP 200, service-facts.md) is an API_ERROR with that status and `errorCode`.
 * Pure, so the shape fuzz tests can drive it without sockets.
 *
 * @param secrets what to redact from the service's text in an API_ERROR (asked only then)
 */
export function decodeBody<T>(
  endpoint: EndpointName,
  status: number,
  text: string,
  shape: Check<T>,
  secrets: () => readonly string[] = NO_SECRETS,
): T {
  if (text === '') throw new OtplessResponseError(endpoint, status, 'empty body');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OtplessResponseError(endpoint, status, 'body is not JSON');
  }
  const mismatch = shape(json);
  if (mismatch === undefined) return json as T;
  if (isErrorBody(json)) throw new OtplessApiError({ endpoint, status, ...parseServiceError(text, secrets()) });
  throw new OtplessResponseError(endpoint, status, describeMismatch(mismatch));
}

/** `{message, errorCode, description}`: the error shape, told apart by an `errorCode`. */
function isErrorBody(json: unknown): boolean {
  if (!isRecord(json)) return false;
  const { errorCode } = json;
  return (typeof errorCode === 'string' && errorCode !== '') || typeof errorCode === 'number';
}
