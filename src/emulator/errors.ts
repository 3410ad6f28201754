import { SERVICE_ERROR_CODES as CODES } from '../wire/serviceErrors.js';
import type { ServiceErrorBody } from '../wire/types.js';

/**
 * Every error the emulator answers, in one table. Bodies have the service's shape:
 * `{message, errorCode, description}` with a SHORT label in `message` and the detail in
 * `description` (service-facts.md).
 *
 * | errorCode | status | when | source |
 * |---|---|---|---|
 * | 7002 | 401 | wrong client id or secret (any endpoint, userInfo included) | service-facts.md |
 * | 7012 | 401 | client id or secret missing or empty | service-facts.md |
 * | 7019 | 401 | only through `fault({ error: 'credentialsNotAllowed' })` | service-facts.md |
 * | 7020-7024 | 429 | only through `fault({ error: 'authRateLimited' })` etc. | service-facts.md |
 * | 7025 | 401 | only through `fault({ error: 'smsNotEnabledForCountry' })` | service-facts.md |
 * | 7026 | 403 | only through `fault({ error: 'appNotAllowed' })` | service-facts.md |
 * | 7101 | 400 | `code`, `token` or `sessionToken` missing, empty or not a string | service-facts.md |
 * | 7102 | 400 | mobile_number is not 8-15 digits with country code (no plus) | service-facts.md |
 * | 7103 | 400 | `channel` is neither WHATSAPP nor SMS | service-facts.md |
 * | 7104 | 400 | email is not a well-formed address | service-facts.md |
 * | 7105 | 400 | only through `fault({ error: 'invalidEmailChannel' })` | service-facts.md |
 * | 7106 | 400 | neither mobile_number nor email given | service-facts.md |
 * | 7108 | 400 | redirect_uri missing or not an absolute http(s) URL | service-facts.md |
 * | 7113 | 400 | expiry is not an integer from 30 to 2592000 | service-facts.md |
 * | 7114 | 400 | token or session token unknown, of another client, or session not completed; code unknown, not yet obtained by a click, of another client, or already used (no better-documented code for a code) | service-facts.md |
 * | 7119 | 400 | only through `fault({ error: 'invalidRequestId' })` | service-facts.md |
 * | 7301 | 401 | token, session token or code expired | service-facts.md |
 * | (none) | 500 | unexpected emulator failure: `{"message":"Something went wrong. Please try again!"}` | service-facts.md |
 * | EMU-400 | 400 | body is not valid JSON or not a JSON object | emulator-only |
 * | EMU-404 | 404 | unknown path, or an endpoint asked on the other host | emulator-only |
 * | EMU-405 | 405 | wrong method for the path (an `Allow` header names the right one) | emulator-only |
 * | EMU-413 | 413 | body larger than 64 KiB | emulator-only |
 * | EMU-415 | 415 | wrong Content-Type (JSON endpoints need application/json, userInfo a form) | emulator-only |
 * | EMU-421 | 421 | `Host` header names none of the emulator's names (DNS rebinding guard) | emulator-only |
 * | EMU-FAULT | fault's status | `emulator.fault({ status })` without a body or error | emulator-only |
 *
 * Emulator-only codes are `EMU-` plus the HTTP status (or `FAULT`), outside the service's
 * digits-only 7xxx space on purpose: they can never collide with a code the service adds
 * later, nobody can mistake one for the service's vocabulary and key product logic on it, and
 * they exercise a caller's tolerance for codes it does not know (service-facts.md: "never
 * assume a field"). The 500 answer carries no code at all, like the service's.
 *
 * Quirks change how any of these is sent (router.ts): `errorWith200` answers them with HTTP 200,
 * `noErrorCodeOn401` leaves `errorCode` out of every 401.
 */
const LABEL = {
  invalidRequest: 'Invalid Request',
  accessBlocked: 'Access blocked',
  expired: 'Expired',
  rateLimit: 'Rate Limit Exceeded',
} as const;

interface ErrorRow {
  readonly status: number;
  readonly errorCode?: string;
  readonly message: string;
  readonly description?: string;
}

function rateLimit(errorCode: string, description: string): ErrorRow {
  return { status: 429, errorCode, message: LABEL.rateLimit, description };
}

function badRequest(errorCode: string, description: string): ErrorRow {
  return { status: 400, errorCode, message: LABEL.invalidRequest, description };
}

export const ERRORS = {
  // ------------------------------------------------------------ the service's (service-facts.md)
  invalidCredentials: {
    status: 401,
    errorCode: CODES.invalidCredentials,
    message: LABEL.accessBlocked,
    description: 'Authorization error: Invalid credentials',
  },
  emptyCredentials: {
    status: 401,
    errorCode: CODES.emptyCredentials,
    message: LABEL.accessBlocked,
    description: 'Authorization error: Empty credentials',
  },
  credentialsNotAllowed: {
    status: 401,
    errorCode: CODES.credentialsNotAllowed,
    message: LABEL.accessBlocked,
    description: 'Authorization error: These credentials are not allowed for this request',
  },
  authRateLimited: rateLimit(
    CODES.authRateLimited,
    'Authentication Rate Limited reached. Please try again after some time.',
  ),
  rateLimited: rateLimit(CODES.rateLimited, 'Rate limit exceeded. Please try again after some time.'),
  identityRateLimited: rateLimit(
    CODES.identityRateLimited,
    'The identity associated with this request has exceeded the allowed number of authentication requests.',
  ),
  ipRateLimited: rateLimit(
    CODES.ipRateLimited,
    'The IP associated with this request has exceeded the allowed number of authentication requests.',
  ),
  appRateLimited: rateLimit(
    CODES.appRateLimited,
    'The application has exceeded the allowed number of authentication requests.',
  ),
  smsNotEnabledForCountry: {
    status: 401,
    errorCode: CODES.smsNotEnabledForCountry,
    message: LABEL.accessBlocked,
    description: 'SMS delivery to this country is not enabled.',
  },
  appNotAllowed: {
    status: 403,
    errorCode: CODES.appNotAllowed,
    message: LABEL.accessBlocked,
    description: 'Authorization error: This app is not allowed to make this request',
  },
  invalidParameters: badRequest(
    CODES.invalidParameters,
    'Request error: Invalid parameters values or Required parameters are missing.',
  ),
  invalidPhone: badRequest(CODES.invalidPhone, 'Request error: Invalid phone number.'),
  invalidPhoneChannel: badRequest(CODES.invalidPhoneChannel, 'Request error: Invalid phone number delivery channel.'),
  invalidEmail: badRequest(CODES.invalidEmail, 'Request error: Invalid email.'),
  invalidEmailChannel: badRequest(CODES.invalidEmailChannel, 'Request error: Invalid email channel.'),
  invalidPhoneOrEmail: badRequest(CODES.invalidPhoneOrEmail, 'Request error: Invalid phoneNumber or email.'),
  invalidRedirectUri: badRequest(CODES.invalidRedirectUri, 'Request error: Invalid redirect URI.'),
  invalidExpiry: badRequest(CODES.invalidExpiry, 'Request error: Invalid expiry.'),
  invalidToken: badRequest(CODES.invalidToken, 'Request error: Invalid token'),
  invalidRequestId: badRequest(CODES.invalidRequestId, 'Request error: Invalid request id'),
  expired: {
    status: 401,
    errorCode: CODES.expired,
    message: LABEL.expired,
    description: 'Request error: Token is expired',
  },
  internal: { status: 500, message: 'Something went wrong. Please try again!' },
  // ------------------------------------------------------------ emulator-only
  malformedBody: {
    status: 400,
    errorCode: 'EMU-400',
    message: LABEL.invalidRequest,
    description: 'Emulator: the body must be a JSON object.',
  },
  notFound: {
    status: 404,
    errorCode: 'EMU-404',
    message: 'Not Found',
    description: 'Emulator: no such endpoint on this host.',
  },
  methodNotAllowed: {
    status: 405,
    errorCode: 'EMU-405',
    message: 'Method Not Allowed',
    description: 'Emulator: see the Allow header.',
  },
  bodyTooLarge: {
    status: 413,
    errorCode: 'EMU-413',
    message: 'Payload Too Large',
    description: 'Emulator: the body must not exceed 64 KiB.',
  },
  unsupportedMediaType: {
    status: 415,
    errorCode: 'EMU-415',
    message: 'Unsupported Media Type',
    description: 'Emulator: send the body with the Content-Type the endpoint expects.',
  },
  misdirected: {
    status: 421,
    errorCode: 'EMU-421',
    message: 'Misdirected Request',
    description: 'Emulator: the Host header names none of the names this emulator listens on.',
  },
  fault: {
    status: 500,
    errorCode: 'EMU-FAULT',
    message: 'Emulated fault',
    description: 'Emulator: answer injected by emulator.fault().',
  },
} as const satisfies Record<string, ErrorRow>;

export type ErrorName = keyof typeof ERRORS;

/** The service's own errors (every row with a 7xxx code): what `fault({ error })` may answer. */
export const SERVICE_FAULT_ERRORS = [
  'invalidCredentials',
  'emptyCredentials',
  'credentialsNotAllowed',
  'authRateLimited',
  'rateLimited',
  'identityRateLimited',
  'ipRateLimited',
  'appRateLimited',
  'smsNotEnabledForCountry',
  'appNotAllowed',
  'invalidParameters',
  'invalidPhone',
  'invalidPhoneChannel',
  'invalidEmail',
  'invalidEmailChannel',
  'invalidPhoneOrEmail',
  'invalidRedirectUri',
  'invalidExpiry',
  'invalidToken',
  'invalidRequestId',
  'expired',
] as const satisfies readonly ErrorName[];

export type ServiceFaultError = (typeof SERVICE_FAULT_ERRORS)[number];

/** Thrown by handlers to end a request with an error answer; the router sends it as JSON. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ServiceErrorBody;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: ServiceErrorBody, headers: Record<string, string> = {}) {
    super(body.description ?? body.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** The body of a row of the table, optionally with a more precise description. */
export function errorBody(name: ErrorName, description?: string): ServiceErrorBody {
  const { status: _status, ...body } = ERRORS[name] as ErrorRow;
  return description === undefined ? { ...body } : { ...body, description };
}

/** The error of the table, optionally with a more precise description. */
export function apiError(name: ErrorName, description?: string, headers?: Record<string, string>): ApiError {
  return new ApiError(ERRORS[name].status, errorBody(name, description), headers);
}
