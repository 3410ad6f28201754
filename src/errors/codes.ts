/**
 * The codes of the package's error classes, one code per refusal: the string is the error's
 * `code`, the JSON body's `error.code`, the diagnostics event's `code`, and a row of
 * docs/codes.md. No two classes share a code, so `switch (err.code)` narrows to the class.
 */

/** Codes of the errors `OtplessClient` throws, one class each. */
export const CLIENT_ERROR_CODES = [
  'INVALID_ARGUMENT',
  'API_ERROR',
  'TIMEOUT',
  'NETWORK',
  'BAD_RESPONSE',
  'NOT_SUCCESS',
] as const;
/** A code of an error `OtplessClient` throws. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/**
 * Why a route of ours (`send()`, or the callback when the service fails) could not do its work
 * (`OtplessRequestError`). `RATE_LIMITED` is our own send limit (429); the service's own rate
 * limit is `SERVICE_UNAVAILABLE`.
 */
export const REQUEST_ERROR_CODES = [
  'INVALID_INPUT',
  'CROSS_SITE',
  'UNSUPPORTED_MEDIA_TYPE',
  // A body larger than any sign-in needs, to a route of the one mount (which reads bodies itself).
  'BODY_TOO_LARGE',
  'RATE_LIMITED',
  // The send's bot check: its token proved no person (403), or the provider could not tell (503).
  'BOT_CHECK_FAILED',
  'BOT_CHECK_UNAVAILABLE',
  'SERVICE_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'SERVICE_ERROR',
  // The service answered 200 in a state other than SUCCESS (the client's NOT_SUCCESS): its fault, 502.
  'SERVICE_NOT_SUCCESS',
  // A store we depend on (flows and used tokens, or the send limits) did not answer: fail closed.
  'STORE_UNAVAILABLE',
  // Passkeys (src/passkey/): a registration outside the fresh link login that allows it (403),
  // a challenge expired, used or never given (400), a passkey this site does not know (401), a
  // response made for another origin (400), a signature counter that went backwards (401: a cloned
  // authenticator), or any other response that does not verify (400).
  'PASSKEY_NOT_ALLOWED',
  'PASSKEY_CHALLENGE_EXPIRED',
  'PASSKEY_UNKNOWN',
  'PASSKEY_WRONG_ORIGIN',
  'PASSKEY_COUNTER_BACKWARDS',
  'PASSKEY_INVALID',
] as const;
/** A code of `OtplessRequestError`. */
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];

/** What is missing from the app's setup (`OtplessSetupError`). */
export const SETUP_ERROR_CODES = [
  'MISSING_SESSION',
  'MISSING_BODY_PARSER',
  'MISSING_RESPONSE',
  'NO_LOGIN_RECORD',
  // A cookie session has risk signals to keep and no secret to encrypt them with.
  'MISSING_SESSION_SECRET',
  // Passport's redirect options on a host without res.redirect (Connect).
  'REDIRECT_NEEDS_EXPRESS',
  // Passkeys need a domain (an RP ID cannot be an IP address), and @simplewebauthn/server installed.
  'PASSKEY_NEEDS_DOMAIN',
  'PASSKEY_DEPENDENCY_MISSING',
] as const;
/** A code of `OtplessSetupError`. */
export type SetupErrorCode = (typeof SETUP_ERROR_CODES)[number];

/** Every code of every error of this package; match on these, never on messages. */
export type OtplessErrorCode = ClientErrorCode | RequestErrorCode | SetupErrorCode;
