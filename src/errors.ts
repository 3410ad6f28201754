/**
 * Every error class of the package and the tables of their codes, in one place.
 *
 * Two layers, two vocabularies:
 * - `code` says which class it is: the client's five (`ClientErrorCode`) and the routes' two
 *   (`RouteErrorCode`: `SETUP_ERROR`, `REQUEST_FAILED`). `isOtplessError(err, code)` narrows every one.
 * - `reason` on a route error says why a route of ours refused or failed (`RequestFailureReason`,
 *   `SetupFailureReason`); the callback's own refusals are `CallbackFailureCode`s. A reason is
 *   the same string in the JSON body's `error.code`, in the diagnostics events and in the one
 *   table of docs/codes.md.
 *
 * Messages, enumerable fields and `cause` never contain the client secret, a code or a token.
 */
import type { EndpointName } from './wire/endpoints.js';

/** Codes of the errors `OtplessClient` throws. */
export type ClientErrorCode = 'INVALID_INPUT' | 'API_ERROR' | 'TIMEOUT' | 'NETWORK' | 'BAD_RESPONSE' | 'NOT_SUCCESS';
/** Every client code, for checks at run time. */
export const CLIENT_ERROR_CODES: readonly ClientErrorCode[] = [
  'INVALID_INPUT',
  'API_ERROR',
  'TIMEOUT',
  'NETWORK',
  'BAD_RESPONSE',
  'NOT_SUCCESS',
];
/** Codes of the errors the package's routes raise (send, callback, guards). */
export type RouteErrorCode = 'SETUP_ERROR' | 'REQUEST_FAILED';
/** Stable codes of every error of this package; match on these, not on messages. */
export type OtplessErrorCode = ClientErrorCode | RouteErrorCode;

/**
 * Why a route of ours (`send()`, or the callback when the service fails) could not do its work.
 * `RATE_LIMITED` is our own send limit (429); the service's own rate limit is `SERVICE_UNAVAILABLE`.
 */
export type RequestFailureReason =
  | 'INVALID_INPUT'
  | 'CROSS_SITE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  // A body larger than any sign-in needs, to a route of the one mount (which reads bodies itself).
  | 'BODY_TOO_LARGE'
  | 'RATE_LIMITED'
  // The send's bot check: its token proved no person (403), or the provider could not tell (503).
  | 'BOT_CHECK_FAILED'
  | 'BOT_CHECK_UNAVAILABLE'
  | 'SERVICE_TIMEOUT'
  | 'SERVICE_UNAVAILABLE'
  | 'SERVICE_ERROR'
  // The service answered 200 in a state other than SUCCESS (OtplessStateError): its fault, 502.
  | 'NOT_SUCCESS'
  // A store we depend on (flows and used tokens, or the send limits) did not answer: fail closed.
  | 'STORE_UNAVAILABLE';

/** What is missing from the app's setup. */
export type SetupFailureReason =
  | 'MISSING_SESSION'
  | 'MISSING_BODY_PARSER'
  | 'MISSING_RESPONSE'
  | 'NO_LOGIN_RECORD'
  // A cookie session has risk signals to keep and no secret to encrypt them with.
  | 'MISSING_SESSION_SECRET'
  // Passport's redirect options on a host without res.redirect (Connect).
  | 'REDIRECT_NEEDS_EXPRESS';

/**
 * Marks errors of this package. `Symbol.for` so that two copies of the package loaded in one
 * app (each with its own classes) still recognise each other's errors in `isOtplessError`.
 */
const OTPLESS_ERROR_BRAND: unique symbol = Symbol.for('passport-otpless.error');

/**
 * Base class of every error of this package; each subclass narrows `code` to its own.
 *
 * Messages, enumerable fields and `cause` never contain the client secret, a code or a token.
 *
 * @example
 * try { await client.verifyCode(code) }
 * catch (err) { if (err instanceof OtplessError) console.log(err.code) }
 */
export class OtplessError extends Error {
  /** Stable machine-readable code. */
  readonly code: OtplessErrorCode;

  constructor(code: OtplessErrorCode, message: string, options?: { cause?: Error }) {
    super(message, options);
    this.code = code;
  }
}

// On the prototype, non-enumerable: shows up neither in JSON.stringify nor in util.inspect.
Object.defineProperty(OtplessError.prototype, OTPLESS_ERROR_BRAND, { value: true });
nameClass(OtplessError, 'OtplessError');

/** `name` on the prototype, spelt out (a bundler may rename classes), non-enumerable like Error's own. */
function nameClass(ctor: { prototype: object }, name: string): void {
  Object.defineProperty(ctor.prototype, 'name', { value: name, writable: true, configurable: true });
}

/**
 * An argument was rejected before any request was sent. `field` names it
 * (e.g. `email`, `mobileNumber`, `expiry`, `redirectUri`, `code`, `token`, `sessionToken`).
 *
 * @example
 * if (isOtplessError(err, 'INVALID_INPUT')) res.status(400).send(`check ${err.field}`)
 */
export class OtplessInputError extends OtplessError {
  declare readonly code: 'INVALID_INPUT';
  /** The offending argument or field. Its value is never repeated in the message. */
  readonly field: string;

  constructor(field: string, message: string) {
    super('INVALID_INPUT', message);
    this.field = field;
  }
}

nameClass(OtplessInputError, 'OtplessInputError');

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
 * if (isOtplessError(err, 'API_ERROR') && err.status === 401) console.error('check clientSecret')
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

nameClass(OtplessApiError, 'OtplessApiError');

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

nameClass(OtplessTimeoutError, 'OtplessTimeoutError');

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

nameClass(OtplessNetworkError, 'OtplessNetworkError');

/**
 * A 2xx answer that cannot be used: empty, not JSON, too large, or not of the documented shape.
 * The message names the first field that did not fit, never its value.
 *
 * @example
 * if (isOtplessError(err, 'BAD_RESPONSE')) console.error(err.message) // "... userDetails.token: expected a string"
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

nameClass(OtplessResponseError, 'OtplessResponseError');

/**
 * A 2xx answer that carries `status` (validate-token, secure-info, verify-code's `userDetails`)
 * in a state other than `SUCCESS`, the only state the spec defines: compared exactly, case
 * included (`success` is not the documented value, and what it would mean is not known). A
 * `status` that is null or not a string is such a state too. `serviceStatus` holds the state
 * (at most 40 characters), `serviceMessage` verify-code's `message`, both without any secret,
 * code or token.
 *
 * @example
 * if (isOtplessError(err, 'NOT_SUCCESS')) log.warn(`${err.endpoint} answered ${err.serviceStatus}`)
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

nameClass(OtplessStateError, 'OtplessStateError');

/**
 * The app is wired up wrongly (a middleware missing before ours). Status 500: it is never
 * the visitor's fault, and the message names what to add.
 *
 * @example
 * // "send() needs a body parser before it: add app.use(express.urlencoded({ extended: false })) ..."
 */
export class OtplessSetupError extends OtplessError {
  declare readonly code: 'SETUP_ERROR';
  /** What is missing. */
  readonly reason: SetupFailureReason;
  /** HTTP status for an error handler: always 500. */
  readonly status = 500;

  constructor(reason: SetupFailureReason, message: string) {
    super('SETUP_ERROR', message);
    this.reason = reason;
  }

  static missingSession(): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_SESSION',
      'passport-otpless needs a session before this route: add app.use(session({ ... })) from express-session, ' +
        'or app.use(cookieSession({ ... })) followed by app.use(sessionCompat()). ' +
        "Only with crossDevice: 'accept' do send() and the callback work without one (any browser that opens the link is then signed in).",
    );
  }

  /** A page the strategy answers itself needs the response, which Express links and Connect does not. */
  static missingResponse(what: string): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_RESPONSE',
      `${what} needs the response object: Express links it (req.res); on Connect, add app.use(sessionCompat()) ` +
        'after the session middleware; on Fastify, register otplessFastify().',
    );
  }

  /** On Fastify, the strategy reaches the reply only through the `otplessFastify()` plugin. */
  static missingFastifyPlugin(): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_RESPONSE',
      'On Fastify the magic-link callback needs its reply: register the plugin once, before the routes: ' +
        'await app.register(otplessFastify()).',
    );
  }

  /** Passport's successRedirect/failureRedirect call `res.redirect`, which Connect does not have. */
  static redirectWithoutExpress(): OtplessSetupError {
    return new OtplessSetupError(
      'REDIRECT_NEEDS_EXPRESS',
      "Passport answers successRedirect and failureRedirect with res.redirect, which Connect has not: on Connect call passport.authenticate('magic-link', " +
        '(err, user, info, status) => ...) with a callback that calls req.logIn(user, ...) and redirects itself (see docs/frameworks.md).',
    );
  }

  static missingBodyParser(): OtplessSetupError {
    return new OtplessSetupError(
      'MISSING_BODY_PARSER',
      'send() needs a body parser before it: add express.urlencoded({ extended: false }) for forms ' +
        'and/or express.json() for JSON, to the route or with app.use().',
    );
  }
}

nameClass(OtplessSetupError, 'OtplessSetupError');

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
  /** For `RATE_LIMITED`: seconds until a send is allowed again (also sent as `Retry-After`). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    reason: RequestFailureReason,
    message: string,
    field?: string,
    cause?: Error,
    retryAfterSeconds?: number,
  ) {
    super('REQUEST_FAILED', message, cause ? { cause } : undefined);
    this.status = status;
    this.reason = reason;
    this.field = field;
    this.expose = status < 500;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The JSON body a JSON client receives. */
  toJSON(): {
    error: { code: RequestFailureReason; message: string; field?: string; retryAfterSeconds?: number };
  } {
    return {
      error: {
        code: this.reason,
        message: this.message,
        ...(this.field ? { field: this.field } : {}),
        ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
      },
    };
  }
}

nameClass(OtplessRequestError, 'OtplessRequestError');

/** The error class behind each code, for narrowing. */
export interface OtplessErrorByCode {
  INVALID_INPUT: OtplessInputError;
  API_ERROR: OtplessApiError;
  TIMEOUT: OtplessTimeoutError;
  NETWORK: OtplessNetworkError;
  BAD_RESPONSE: OtplessResponseError;
  NOT_SUCCESS: OtplessStateError;
  SETUP_ERROR: OtplessSetupError;
  REQUEST_FAILED: OtplessRequestError;
}

/**
 * Is `err` an error of this package (optionally with the given `code`)? Works across two copies
 * of the package loaded in one app, where `instanceof` does not: it checks a `Symbol.for` brand
 * and the `code` string.
 *
 * @example
 * catch (err) {
 *   if (isOtplessError(err, 'API_ERROR') && err.status === 429) return retryLater();
 *   if (isOtplessError(err)) log.warn(err.code, err.message);
 * }
 */
export function isOtplessError<C extends OtplessErrorCode>(err: unknown, code: C): err is OtplessErrorByCode[C];
export function isOtplessError(err: unknown): err is OtplessError;
export function isOtplessError(err: unknown, code?: OtplessErrorCode): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { [OTPLESS_ERROR_BRAND]?: unknown; code?: unknown };
  if (e[OTPLESS_ERROR_BRAND] !== true || typeof e.code !== 'string') return false;
  return code === undefined || e.code === code;
}
