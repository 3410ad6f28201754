/**
 * Every way a callback can refuse a login, with its HTTP status. They reach Passport as
 * `fail({ code, message }, status)`, so `failureMessage`/`failureFlash` and custom callbacks see
 * them; the words of each are the catalogue's `failure.<CODE>` (src/web/messages/), and
 * `CALLBACK_FAILURES` (src/login/failures.ts) pairs the two.
 */
export const CALLBACK_FAILURE_STATUS = {
  // The link is incomplete or malformed (cut when copied, say): opening it again may work.
  INVALID_CODE: 400,
  // The service refused the code: invalid, expired or already used. A new link is the way on.
  CODE_REJECTED: 401,
  // The frontend token was refused, or its authentication is older than maxAuthAgeMs (or carries
  // no time): the person signs in again.
  TOKEN_REJECTED: 401,
  // The service verified no identity of this login (none marked verified, none we sent to).
  NO_VERIFIED_IDENTITY: 401,
  // The link does not belong to a send of this browser: opened in another browser, already used
  // here (the session is new after a login), bound to another of this browser's sends, or not
  // matched at all. The person asks for a new link in this browser; the operator gets a warning
  // when the service breaks the binding (OTPLESS_BINDING_FAILED).
  WRONG_BROWSER: 403,
  CROSS_SITE: 403,
  FLOW_PENDING: 409,
  FLOW_DENIED: 403,
  FLOW_EXPIRED: 401,
  USER_REFUSED: 401,
} as const;

/** A code of the callback's refusals. */
export type CallbackFailureCode = keyof typeof CALLBACK_FAILURE_STATUS;

/** What Passport's `fail` receives from the callback. */
export interface CallbackFailure {
  code: CallbackFailureCode;
  message: string;
}
