import type { EndpointName } from '../../wire/endpoints.js';
import { OtplessError } from './OtplessError.js';

/**
 * The service could not be reached, or the connection broke (refused, reset, closed client).
 * `cause` is a sanitized copy of the low-level error: name, code and a redacted message only.
 *
 * @example
 * if (isOtplessError(err, 'NETWORK')) console.error(err.message, err.cause)
 */
export class OtplessNetworkError extends OtplessError {
  declare readonly code: 'NETWORK';
  readonly endpoint: EndpointName;

  constructor(endpoint: EndpointName, message: string, cause?: Error) {
    super('NETWORK', message, cause === undefined ? undefined : { cause });
    this.endpoint = endpoint;
  }
}

Object.defineProperty(OtplessNetworkError.prototype, 'name', {
  value: 'OtplessNetworkError',
  writable: true,
  configurable: true,
});
