import { brandClass } from './brand.js';
import type { RequestErrorCode } from './codes.js';
import { OtplessError } from './OtplessError.js';

/** The JSON body a route answers a refusal with. */
export interface OtplessRequestErrorBody {
  error: { code: RequestErrorCode; message: string; field?: string; retryAfterSeconds?: number };
}

/**
 * A route of ours (`send()`, or the callback when the service fails) could not do its work.
 * `code` says why (the same string as the JSON body's `error.code`), `status` is the HTTP
 * status to answer (400 for the visitor's input, 502/503/504 when the service failed: never
 * the service's own status, which may be a 401 about our credentials), `field` the form field
 * at fault, and `message` text that can be shown to the visitor as it is. The client's error,
 * with the details, is the `cause`.
 *
 * @example
 * strategy.send({ onError: (err, req, res) => res.status(err.status).render('login', { error: err.message, field: err.field }) })
 */
export class OtplessRequestError extends OtplessError {
  declare readonly code: RequestErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  /** Express's error handler shows `message` when `expose` is true: only for 4xx. */
  readonly expose: boolean;
  /** For `RATE_LIMITED`: seconds until a send is allowed again (also sent as `Retry-After`). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    code: RequestErrorCode,
    message: string,
    field?: string,
    cause?: Error,
    retryAfterSeconds?: number,
  ) {
    super(code, message, cause ? { cause } : undefined);
    this.status = status;
    this.field = field;
    this.expose = status < 500;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The JSON body a JSON client receives. */
  toJSON(): OtplessRequestErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field ? { field: this.field } : {}),
        ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
      },
    };
  }
}

brandClass(OtplessRequestError, 'OtplessRequestError');
