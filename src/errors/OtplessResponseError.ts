import type { EndpointName } from '../wire/endpoints.js';
import { brandClass } from './brand.js';
import { OtplessError } from './OtplessError.js';

/**
 * A 2xx answer that cannot be used: empty, not JSON, too large, or not of the documented shape.
 * The message names the first field that did not fit, never its value.
 *
 * @example
 * if (err instanceof OtplessResponseError) console.error(err.message) // "... userDetails.token: expected a string"
 */
export class OtplessResponseError extends OtplessError {
  declare readonly code: 'BAD_RESPONSE';
  readonly endpoint: EndpointName;
  /** HTTP status of the answer, when one was received. */
  readonly status: number | undefined;

  constructor(endpoint: EndpointName, status: number | undefined, problem: string) {
    const http = status === undefined ? '' : ` HTTP ${status}`;
    super(
      'BAD_RESPONSE',
      `OTPless ${endpoint} answered${http} with an unusable body: ${problem}. Check authUrl and userAuthUrl point at the OTPless service.`,
    );
    this.endpoint = endpoint;
    this.status = status;
  }
}

brandClass(OtplessResponseError, 'OtplessResponseError');
