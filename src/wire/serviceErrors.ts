/**
 * The service's documented error codes (service-facts.md, "The real error vocabulary": the
 * service's API reference and its SDK error-code pages). `errorCode` travels as a string of
 * digits. Shared by the emulator (which answers them) and the client side (which reads them);
 * codes the emulator invents for itself are NOT here (see src/emulator/errors.ts).
 *
 * Real error bodies put a short label in `message` ("Invalid Request", "Access blocked",
 * "Expired", "Rate Limit Exceeded") and the detail in `description`; some 401 answers carry no
 * `errorCode` at all, so never rely on one being there.
 */
export const SERVICE_ERROR_CODES = {
  /** 401: the client id or secret is wrong. */
  invalidCredentials: '7002',
  /** 401: the client id or secret is missing or empty. */
  emptyCredentials: '7012',
  /** 401/403: these credentials may not make this call. */
  credentialsNotAllowed: '7019',
  /** 429: authentication rate limit reached. */
  authRateLimited: '7020',
  /** 429: in the documented rate-limit range 7020-7024; its own meaning is not documented. */
  rateLimited: '7021',
  /** 429: too many requests for this identity (phone number or e-mail). */
  identityRateLimited: '7022',
  /** 429: too many requests from this IP. */
  ipRateLimited: '7023',
  /** 429: too many requests for this application. */
  appRateLimited: '7024',
  /** 401: SMS delivery is not enabled for the number's country. */
  smsNotEnabledForCountry: '7025',
  /** 403: the app is not allowed to make this call. */
  appNotAllowed: '7026',
  /** 400: invalid parameter values, or required parameters missing. */
  invalidParameters: '7101',
  /** 400: invalid phone number. */
  invalidPhone: '7102',
  /** 400: invalid phone delivery channel (`channel` other than WHATSAPP or SMS). */
  invalidPhoneChannel: '7103',
  /** 400: invalid e-mail address. */
  invalidEmail: '7104',
  /** 400: invalid e-mail channel. */
  invalidEmailChannel: '7105',
  /** 400: invalid phone number or e-mail, or neither given. */
  invalidPhoneOrEmail: '7106',
  /** 400: invalid redirect URI. */
  invalidRedirectUri: '7108',
  /** 400: invalid expiry. */
  invalidExpiry: '7113',
  /** 400: invalid token (also what the emulator answers for an unknown or used code). */
  invalidToken: '7114',
  /** 400: invalid request id. */
  invalidRequestId: '7119',
  /** 401: the token, code or session is expired. */
  expired: '7301',
} as const;

export type ServiceErrorName = keyof typeof SERVICE_ERROR_CODES;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[ServiceErrorName];

const C = SERVICE_ERROR_CODES;

/**
 * Codes by which the service says the caller's own credentials (or app) are refused: a
 * misconfigured app, never the end user's mistake.
 */
export const CREDENTIAL_ERROR_CODES: ReadonlySet<string> = new Set([
  C.invalidCredentials,
  C.emptyCredentials,
  C.credentialsNotAllowed,
  C.appNotAllowed,
]);

/** Rate limits (HTTP 429): try again later. */
export const RATE_LIMIT_ERROR_CODES: ReadonlySet<string> = new Set([
  C.authRateLimited,
  C.rateLimited,
  C.identityRateLimited,
  C.ipRateLimited,
  C.appRateLimited,
]);

/** The token, code or session expired (HTTP 401): start a new login. */
export const EXPIRED_ERROR_CODES: ReadonlySet<string> = new Set([C.expired]);

/** Whether `errorCode` is one of the service's documented codes. */
export function isServiceErrorCode(errorCode: unknown): errorCode is ServiceErrorCode {
  return typeof errorCode === 'string' && (Object.values(C) as string[]).includes(errorCode);
}
