import type { EndpointName } from '../wire/endpoints.js';
import { brandClass } from './brand.js';
import { OtplessError } from './OtplessError.js';

/**
 * No complete answer (status, headers and body) within `timeoutMs`.
 *
 * @example
 * if (err instanceof OtplessTimeoutError) console.warn(`${err.endpoint} took over ${err.timeoutMs} ms`)
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

brandClass(OtplessTimeoutError, 'OtplessTimeoutError');
