import { OtplessError } from '../client/index.js';

/** Why a route of ours could not do its work. */
export type RequestFailureReason =
  'INVALID_INPUT' | 'CROSS_SITE' | 'SERVICE_TIMEOUT' | 'SERVICE_UNAVAILABLE' | 'SERVICE_ERROR';

/**
 * A route of ours (`send()`, or the callback when the service fails) could not do its work.
 * `status` is the HTTP status to answer (400 for the visitor's input, 502/503/504 when the
 * service failed: never the service's own status, which may be a 401 about our credentials),
 * `reason` a stable code, `field` the form field at fault, and `message` text that can be shown
 * to the visitor as it is. The client's error, with the details, is the `cause`.
 *
 * @example
 * strategy.send({ onError: (err, req, res) => res.status(err.status).render('login', { error: err.message, field: err.field }) })
 */
export class OtplessRequestError extends OtplessError {
  declare readonly code: 'REQUEST_FAILED';
  readonly status: number;
  readonly reason: RequestFailureReason;
  readonly field: string | undefined;
  /** Express's error handler shows `message` when `expose` is true: only for 4xx. */
  readonly expose: boolean;

  constructor(status: number, reason: RequestFailureReason, message: string, field?: string, cause?: Error) {
    super('REQUEST_FAILED', message, cause ? { cause } : undefined);
    this.status = status;
    this.reason = reason;
    this.field = field;
    this.expose = status < 500;
  }

  /** The JSON body a JSON client receives. */
  toJSON(): { error: { code: RequestFailureReason; message: string; field?: string } } {
    return { error: { code: this.reason, message: this.message, ...(this.field ? { field: this.field } : {}) } };
  }
}

Object.defineProperty(OtplessRequestError.prototype, 'name', {
  value: 'OtplessRequestError',
  writable: true,
  configurable: true,
});
