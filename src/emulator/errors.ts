import type { ServiceErrorBody } from '../wire/types.js';

/**
 * Every error the emulator answers, in one table.
 *
 * | errorCode | status | when | source |
 * |---|---|---|---|
 * | 7002 | 401 | wrong client id or secret | service-facts.md |
 * | 7012 | 401 | client id or secret missing or empty | service-facts.md |
 * | 7102 | 400 | mobile_number is not 8-15 digits with country code (no plus) | service-facts.md |
 * | 7103 | 400 | email is not a well-formed address | emulator's choice |
 * | 7104 | 400 | neither mobile_number nor email given | emulator's choice |
 * | 7105 | 400 | expiry is not an integer from 30 to 2592000 | emulator's choice |
 * | 7108 | 400 | redirect_uri missing or not an absolute http(s) URL | service-facts.md |
 * | 7114 | 400 | token or session token missing, unknown, of another client, or session not completed | service-facts.md |
 * | 7118 | 400 | code missing, unknown, not yet obtained by a click, or already used | emulator's choice |
 * | 7301 | 401 | token, session token or code expired | service-facts.md |
 * | 7400 | 400 | body is not valid JSON or not a JSON object | emulator's choice |
 * | 7404 | 404 | unknown path, or an endpoint asked on the other host | emulator's choice |
 * | 7405 | 405 | wrong method for the path (an `Allow` header names the right one) | emulator's choice |
 * | 7413 | 413 | body larger than 64 KiB | emulator's choice |
 * | 7415 | 415 | wrong Content-Type (JSON endpoints need application/json, userInfo a form) | emulator's choice |
 * | 7500 | 500 | unexpected emulator failure | emulator's choice |
 * | 7999 | fault's status | `emulator.fault({ status })` without a body | emulator's choice |
 *
 * The legacy userInfo endpoint answers without errorCode, like the service:
 * `{"message":"Invalid secrets"}` (401, any credential problem), `{"message":"token is expired"}`
 * (400) and, the emulator's choice for an unknown token, `{"message":"Invalid token"}` (400).
 */
export const ERRORS = {
  invalidCredentials: {
    status: 401,
    errorCode: '7002',
    message: 'Authorization error: Invalid credentials',
    description: 'The client id or client secret is wrong.',
  },
  emptyCredentials: {
    status: 401,
    errorCode: '7012',
    message: 'Authorization error: Empty credentials',
    description: 'The client id and client secret are required.',
  },
  invalidPhone: {
    status: 400,
    errorCode: '7102',
    message: 'Request error: Invalid phone number',
    description: 'Invalid phone number.',
  },
  invalidEmail: {
    status: 400,
    errorCode: '7103',
    message: 'Request error: Invalid email',
    description: 'Invalid e-mail address.',
  },
  missingIdentity: {
    status: 400,
    errorCode: '7104',
    message: 'Request error: Missing identity',
    description: 'At least one of mobile_number and email is required.',
  },
  invalidExpiry: {
    status: 400,
    errorCode: '7105',
    message: 'Request error: Invalid expiry',
    description: 'expiry must be an integer number of seconds from 30 to 2592000.',
  },
  invalidRedirectUri: {
    status: 400,
    errorCode: '7108',
    message: 'Request error: Invalid redirect URI',
    description: 'redirect_uri must be an absolute http or https URL.',
  },
  invalidToken: {
    status: 400,
    errorCode: '7114',
    message: 'Request error: Invalid token',
    description: 'The token is unknown or not valid for this client.',
  },
  invalidCode: {
    status: 400,
    errorCode: '7118',
    message: 'Request error: Invalid code',
    description: 'The code is unknown or was already used.',
  },
  expired: {
    status: 401,
    errorCode: '7301',
    message: 'Request error: Token is expired',
    description: 'Start a new login.',
  },
  malformedBody: {
    status: 400,
    errorCode: '7400',
    message: 'Request error: Malformed body',
    description: 'The body must be a JSON object.',
  },
  notFound: { status: 404, errorCode: '7404', message: 'Not found', description: 'No such endpoint on this host.' },
  methodNotAllowed: {
    status: 405,
    errorCode: '7405',
    message: 'Method not allowed',
    description: 'See the Allow header.',
  },
  bodyTooLarge: {
    status: 413,
    errorCode: '7413',
    message: 'Request error: Body too large',
    description: 'The body must not exceed 64 KiB.',
  },
  unsupportedMediaType: {
    status: 415,
    errorCode: '7415',
    message: 'Request error: Unsupported Content-Type',
    description: 'Send the body with the Content-Type the endpoint expects.',
  },
  internal: {
    status: 500,
    errorCode: '7500',
    message: 'Internal error',
    description: 'The emulator failed unexpectedly.',
  },
  fault: {
    status: 500,
    errorCode: '7999',
    message: 'Emulated fault',
    description: 'Answer injected by emulator.fault().',
  },
} as const;

export type ErrorName = keyof typeof ERRORS;

/** Legacy userInfo bodies (no errorCode). */
export const LEGACY_ERRORS = {
  invalidSecrets: { status: 401, body: { message: 'Invalid secrets' } },
  tokenExpired: { status: 400, body: { message: 'token is expired' } },
  invalidToken: { status: 400, body: { message: 'Invalid token' } },
} as const;

/** Thrown by handlers to end a request with an error answer; the router sends it as JSON. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ServiceErrorBody;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: ServiceErrorBody, headers: Record<string, string> = {}) {
    super(body.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** The error of the table, optionally with a more precise description. */
export function apiError(name: ErrorName, description?: string, headers?: Record<string, string>): ApiError {
  const { status, ...body } = ERRORS[name];
  return new ApiError(status, description === undefined ? body : { ...body, description }, headers);
}

/** A legacy userInfo error (message only). */
export function legacyError(name: keyof typeof LEGACY_ERRORS): ApiError {
  const { status, body } = LEGACY_ERRORS[name];
  return new ApiError(status, body);
}
