import type { EndpointName } from '../wire/endpoints.js';
import { OtplessResponseError } from '../errors.js';
import { type Check, describeMismatch } from './shapes/check.js';

/**
 * Turns the text of a 2xx body into a checked result: `T`, or BAD_RESPONSE naming what did
 * not fit. Pure, so the shape fuzz tests can drive it without sockets.
 */
export function decodeBody<T>(endpoint: EndpointName, status: number, text: string, shape: Check<T>): T {
  if (text === '') throw new OtplessResponseError(endpoint, status, 'empty body');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OtplessResponseError(endpoint, status, 'body is not JSON');
  }
  const mismatch = shape(json);
  if (mismatch !== undefined) throw new OtplessResponseError(endpoint, status, describeMismatch(mismatch));
  return json as T;
}
