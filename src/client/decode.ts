import type { EndpointName } from '../wire/endpoints.js';
import { OtplessApiError, OtplessResponseError, OtplessStateError } from '../errors/index.js';
import { channels } from '../diagnostics.js';
import { redact } from './redact.js';
import { parseServiceError } from './errorBody.js';
import { type Check, describeMismatch, isRecord } from './shapes/check.js';

const NO_SECRETS = (): readonly string[] => [];

/**
 * Turns the text of a 2xx body into a checked result: `T`, or BAD_RESPONSE naming what did
 * not fit. A 2xx body that is the service's error shape instead of a result (some flows answer
 * errors with HTTP 200, service-facts.md) is an API_ERROR with that status and `errorCode`. An
 * answer that carries `status` in any other state than SUCCESS is NOT_SUCCESS (see `stateOf`).
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
  if (isErrorBody(json)) {
    // A state other than SUCCESS beside an errorCode: the error body says more.
    if (stateOf(json) !== undefined || shape(json) !== undefined)
      throw new OtplessApiError({ endpoint, status, ...parseServiceError(text, secrets()) });
  }
  const state = stateOf(json);
  if (state !== undefined) throw notSuccess(endpoint, status, state, json, secrets());
  const mismatch = shape(json);
  if (mismatch === undefined) return json as T;
  throw new OtplessResponseError(endpoint, status, describeMismatch(mismatch));
}

/** `{message, errorCode, description}`: the error shape, told apart by an `errorCode`. */
function isErrorBody(json: unknown): boolean {
  if (!isRecord(json)) return false;
  const { errorCode } = json;
  return (typeof errorCode === 'string' && errorCode !== '') || typeof errorCode === 'number';
}

/** The only state the spec defines (section 3), compared exactly. */
const SUCCESS = 'SUCCESS';
const MAX_STATE_LENGTH = 40;

/**
 * The state an answer gives other than SUCCESS, or `undefined` when it gives SUCCESS or no
 * `status` at all (requiredness is not shown, and the older verify-code answer has none). Read
 * on the raw answer, before the shape check drops a null or ill-typed member: a `status` that
 * is there and is not the string SUCCESS is a state other than SUCCESS, whatever its type.
 * Where: the answer's own `status` (validate-token, secure-info, and any other answer that
 * carries one) and verify-code's `userDetails.status`.
 */
function stateOf(json: unknown): unknown {
  if (!isRecord(json)) return undefined;
  if (Object.hasOwn(json, 'status') && json.status !== SUCCESS) return json.status;
  const details = json.userDetails;
  if (isRecord(details) && Object.hasOwn(details, 'status') && details.status !== SUCCESS) return details.status;
  return undefined;
}

/** The NOT_SUCCESS error, and its event (`passport-otpless:service:not-success`). */
function notSuccess(
  endpoint: EndpointName,
  status: number,
  state: unknown,
  json: unknown,
  secrets: readonly string[],
): OtplessStateError {
  const raw = typeof state === 'string' ? state : (JSON.stringify(state) ?? String(state));
  const serviceStatus = redact(raw.slice(0, MAX_STATE_LENGTH), secrets);
  // verify-code's `message` "states success" (spec 4.2): here it may say why not.
  const message =
    isRecord(json) && typeof json.message === 'string' ? redact(json.message.slice(0, 200), secrets) : undefined;
  if (channels.serviceNotSuccess.hasSubscribers)
    channels.serviceNotSuccess.publish({ endpoint, status, serviceStatus });
  return new OtplessStateError(endpoint, status, serviceStatus, message);
}
