import type { EndpointName } from '../wire/endpoints.js';
import { brandClass } from './brand.js';
import { OtplessError } from './OtplessError.js';

/**
 * The service could not be reached, or the connection broke (refused, reset, closed client).
 * `cause` is a sanitized copy of the low-level error: name, code and a redacted message only.
 *
 * @example
 * if (err instanceof OtplessNetworkError) console.error(err.message, err.cause)
 */
export class OtplessNetworkError extends OtplessError {
  declare readonly code: 'NETWORK';
  readonly endpoint: EndpointName;

  constructor(endpoint: EndpointName, message: string, cause?: Error) {
    super('NETWORK', message, cause === undefined ? undefined : { cause });
    this.endpoint = endpoint;
  }
}

brandClass(OtplessNetworkError, 'OtplessNetworkError');
