/**
 * The service's answers as the check shows them, and the two readings every step needs: did the
 * service refuse our credentials, and did it say anything odd on the way (an error with HTTP
 * 200, a 401 without errorCode).
 */

import { isOtplessError } from '../errors/index.js';
import { CREDENTIAL_ERROR_CODES } from '../wire/serviceErrors.js';
import type { Observations, ServiceAnswer } from './types.js';

/** A call's outcome: its value, or what it answered instead. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; answer: ServiceAnswer };

/**
 * The error of an `OtplessClient` call as a `ServiceAnswer`. The client's messages are already
 * redacted (no secret, code or token); anything else is reduced to its class name, since a
 * foreign error's message could echo a URL holding the secret.
 */
export function answerOf(err: unknown): ServiceAnswer {
  if (isOtplessError(err, 'API_ERROR')) {
    return {
      kind: 'api',
      status: err.status,
      ...(err.errorCode !== undefined ? { errorCode: err.errorCode } : {}),
      ...(err.serviceMessage !== undefined ? { serviceMessage: err.serviceMessage } : {}),
      text: err.message,
    };
  }
  if (isOtplessError(err, 'TIMEOUT')) return { kind: 'timeout', text: err.message };
  if (isOtplessError(err, 'NETWORK')) return { kind: 'network', text: err.message };
  if (isOtplessError(err, 'BAD_RESPONSE')) {
    return { kind: 'bad-response', ...(err.status !== undefined ? { status: err.status } : {}), text: err.message };
  }
  if (isOtplessError(err, 'NOT_SUCCESS')) {
    return { kind: 'not-success', status: err.status, serviceStatus: err.serviceStatus, text: err.message };
  }
  if (isOtplessError(err, 'INVALID_ARGUMENT')) return { kind: 'input', text: err.message };
  return { kind: 'network', text: `unexpected ${err instanceof Error ? err.name : typeof err}` };
}

/** Short form for a table cell: `HTTP 400 errorCode 7114`. */
export function briefly(answer: ServiceAnswer): string {
  if (answer.kind === 'not-success') return `status ${answer.serviceStatus ?? '?'} instead of SUCCESS`;
  if (answer.kind !== 'api') return answer.kind === 'bad-response' ? 'an unusable answer' : `a ${answer.kind} failure`;
  const code = answer.errorCode === undefined ? ' without errorCode' : ` errorCode ${answer.errorCode}`;
  return `HTTP ${answer.status ?? '?'}${code}`;
}

const ACCESS_BLOCKED = 'access blocked';

/**
 * True when the answer refuses our app rather than what we sent: errorCode 7002, 7012, 7019 or
 * 7026 (at any status: a service that answers errors with HTTP 200 still means it), or, with no
 * errorCode, the label "Access blocked" or a 401 (the documented 401 of verify-code has no
 * errorCode). Mirrors the strategy's own reading, which this tool must not import.
 */
export function refusesCredentials(answer: ServiceAnswer): boolean {
  if (answer.kind !== 'api') return false;
  if (answer.errorCode !== undefined) return CREDENTIAL_ERROR_CODES.has(answer.errorCode);
  return answer.serviceMessage?.trim().toLowerCase() === ACCESS_BLOCKED || answer.status === 401;
}

/** An empty set of observations. */
export function noObservations(): Observations {
  return { errorWith200: [], noErrorCodeOn401: [] };
}

/**
 * Runs one service call, and notes the odd answers on the way (once per call name): the
 * report says where the service answered an error with HTTP 200, or a 401 without errorCode.
 */
export async function attempt<T>(name: string, observed: Observations, call: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    const answer = answerOf(err);
    note(name, answer, observed);
    return { ok: false, answer };
  }
}

/** Records the odd answers of `name`; exported for the raw `+` probe, which makes its own call. */
export function note(name: string, answer: ServiceAnswer, observed: Observations): void {
  if (answer.kind !== 'api' || answer.status === undefined) return;
  if (answer.status >= 200 && answer.status <= 299 && !observed.errorWith200.includes(name)) {
    observed.errorWith200.push(name);
  }
  if (answer.status === 401 && answer.errorCode === undefined && !observed.noErrorCodeOn401.includes(name)) {
    observed.noErrorCodeOn401.push(name);
  }
}
