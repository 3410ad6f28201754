import type { EndpointName } from '../../wire/endpoints.js';
import { OtplessError } from './OtplessError.js';

/**
 * No complete answer (status, headers and body) within `timeoutMs`.
 *
 * @example
 * if (isOtplessError(err, 'TIMEOUT')) console.warn(`${err.endpoint} took over ${err.timeoutMs} ms`)
 */
export class OtplessTimeoutError extends OtplessError {
  declare readonly code: 'TIMEOUT';
  readonly endpoint: EndpointName;
  readonly timeoutMs: number;

  constructor(endpoint: EndpointName, timeoutMs: number) {
    super(
      'TIMEOUT',
      `OTPless ${endpoint} did not answer within ${timeoutMs} ms. Retry later, or raise the timeoutMs option if the service is slow.`,
    );
    this.endpoint = endpoint;
    this.timeoutMs = timeoutMs;
  }
}

Object.defineProperty(OtplessTimeoutError.prototype, 'name', {
  value: 'OtplessTimeoutError',
  writable: true,
  configurable: true,
});
