import type { EndpointName } from '../wire/endpoints.js';
import { brandClass } from './brand.js';
import { OtplessError } from './OtplessError.js';

/**
 * A 2xx answer that carries `status` (validate-token, secure-info, verify-code's `userDetails`)
 * in a state other than `SUCCESS`, the only state the spec defines: compared exactly, case
 * included (`success` is not the documented value, and what it would mean is not known). A
 * `status` that is null or not a string is such a state too. `serviceStatus` holds the state
 * (at most 40 characters), `serviceMessage` verify-code's `message`, both without any secret,
 * code or token.
 *
 * @example
 * if (err instanceof OtplessStateError) log.warn(`${err.endpoint} answered ${err.serviceStatus}`)
 */
export class OtplessStateError extends OtplessError {
  declare readonly code: 'NOT_SUCCESS';
  readonly endpoint: EndpointName;
  /** HTTP status of the answer (a 2xx). */
  readonly status: number;
  /** The state the answer gave instead of SUCCESS (`null` and non-strings as JSON text). */
  readonly serviceStatus: string;
  /** verify-code's `message`, when the answer had one. */
  readonly serviceMessage: string | undefined;

  constructor(endpoint: EndpointName, status: number, serviceStatus: string, serviceMessage?: string) {
    super(
      'NOT_SUCCESS',
      `OTPless ${endpoint} answered HTTP ${status} with status "${serviceStatus}" instead of SUCCESS: the result is not used. The service did not complete this operation; retry, or ask OTPless what this state means.`,
    );
    this.endpoint = endpoint;
    this.status = status;
    this.serviceStatus = serviceStatus;
    this.serviceMessage = serviceMessage;
  }
}

brandClass(OtplessStateError, 'OtplessStateError');
