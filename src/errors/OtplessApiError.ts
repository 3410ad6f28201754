import type { EndpointName } from '../wire/endpoints.js';
import { brandClass } from './brand.js';
import { OtplessError } from './OtplessError.js';

/** What `OtplessApiError` is built from: the call and what its error body said. */
export interface OtplessApiErrorDetails {
  endpoint: EndpointName;
  status: number;
  errorCode?: string | undefined;
  description?: string | undefined;
  serviceMessage?: string | undefined;
}

/**
 * The service answered with an error: a non-2xx status, or a 2xx whose body is the service's
 * error shape (`{message, errorCode, description}`, which some flows send with HTTP 200).
 * `errorCode`, `description` and `serviceMessage` come from the error body when it is JSON and
 * has them (the legacy userInfo endpoint sends `message` only), with any secret, code or token
 * removed.
 *
 * @example
 * if (err instanceof OtplessApiError && err.status === 401) console.error('check clientSecret')
 */
export class OtplessApiError extends OtplessError {
  declare readonly code: 'API_ERROR';
  readonly endpoint: EndpointName;
  /** HTTP status of the answer. */
  readonly status: number;
  /** The service's own error code, a string of digits such as `7102`. */
  readonly errorCode: string | undefined;
  readonly description: string | undefined;
  /** `message` of the error body. */
  readonly serviceMessage: string | undefined;

  constructor(details: OtplessApiErrorDetails) {
    super('API_ERROR', apiErrorMessage(details));
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.errorCode = details.errorCode;
    this.description = details.description;
    this.serviceMessage = details.serviceMessage;
  }
}

brandClass(OtplessApiError, 'OtplessApiError');

function apiErrorMessage(d: OtplessApiErrorDetails): string {
  const code = d.errorCode === undefined ? '' : ` (errorCode ${d.errorCode})`;
  const said = d.description ?? d.serviceMessage;
  // The service's text often ends with a period of its own.
  const text = said === undefined ? '' : `: ${said.replace(/[.\s]+$/, '')}`;
  return `OTPless ${d.endpoint} failed with HTTP ${d.status}${code}${text}. ${hint(d.status)}`;
}

/** What to do next, by status class: the part of the message a developer acts on. */
function hint(status: number): string {
  if (status === 401 || status === 403)
    return 'Check clientId and clientSecret, and that this client may use this endpoint.';
  if (status === 429) return 'Too many requests: retry later, with backoff.';
  if (status >= 500) return 'The service is failing: retry later.';
  if (status >= 400)
    return 'The service rejected the request: check the arguments (a code or token may be invalid, used or expired).';
  if (status >= 200 && status <= 299) return 'The service reported an error in a success answer: see errorCode.';
  return 'Unexpected status: check authUrl and userAuthUrl.';
}
