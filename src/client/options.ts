import { DEFAULT_AUTH_URL, DEFAULT_USER_AUTH_URL } from '../wire/endpoints.js';

/** Options of `new OtplessClient(...)`. */
export interface OtplessClientOptions {
  /** Client identifier from the OTPless dashboard. */
  clientId: string;
  /** Client secret. Never appears in an error, message or log line of this package. */
  clientSecret: string;
  /** Base URL of the auth host. Default `https://auth.otpless.app`. */
  authUrl?: string;
  /** Base URL of the user-auth host. Default `https://user-auth.otpless.app`. */
  userAuthUrl?: string;
  /** Limit for a whole request, body included, in ms. Default 10 000. */
  timeoutMs?: number;
  /** Largest response body read, in bytes; a larger one is BAD_RESPONSE. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Keep-alive connections per origin. Default 64. */
  connections?: number;
}

/** A base URL split the way the dispatcher wants it. */
export interface BaseUrl {
  /** `scheme://host[:port]`, the pool key. */
  origin: string;
  /** Path prefix without trailing slash, usually empty. */
  prefix: string;
}

export interface ResolvedOptions {
  clientId: string;
  clientSecret: string;
  auth: BaseUrl;
  userAuth: BaseUrl;
  timeoutMs: number;
  maxResponseBytes: number;
  connections: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const DEFAULT_CONNECTIONS = 64;
/** setTimeout's ceiling; a longer delay fires at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;
/** Credentials travel in headers: visible ASCII only, so no header injection and no undici error echoing them. */
const CREDENTIAL = /^[\x21-\x7e]{1,4096}$/;

/**
 * Checks every option and fills in defaults. Throws a `TypeError` naming the bad option; the
 * message never repeats a value (it could be the secret).
 */
export function resolveOptions(options: OtplessClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('OtplessClient: options must be an object with clientId and clientSecret');
  }
  return {
    clientId: credential(options.clientId, 'clientId'),
    clientSecret: credential(options.clientSecret, 'clientSecret'),
    auth: baseUrl(options.authUrl ?? DEFAULT_AUTH_URL, 'authUrl'),
    userAuth: baseUrl(options.userAuthUrl ?? DEFAULT_USER_AUTH_URL, 'userAuthUrl'),
    timeoutMs: integer(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS),
    maxResponseBytes: integer(options.maxResponseBytes, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES, 1, 2 ** 31 - 1),
    connections: integer(options.connections, 'connections', DEFAULT_CONNECTIONS, 1, 4096),
  };
}

function credential(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`OtplessClient: option ${name} is required (a non-empty string from the OTPless dashboard)`);
  }
  if (!CREDENTIAL.test(value)) {
    throw new TypeError(
      `OtplessClient: option ${name} must be printable ASCII without spaces, at most 4096 characters`,
    );
  }
  return value;
}

function baseUrl(value: unknown, name: string): BaseUrl {
  const problem = `OtplessClient: option ${name} must be an absolute http(s) URL without credentials, query or fragment, e.g. https://auth.otpless.app`;
  if (typeof value !== 'string') throw new TypeError(problem);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(problem);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== '' ||
    value.includes('?') ||
    value.includes('#')
  ) {
    throw new TypeError(problem);
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

function integer(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`OtplessClient: option ${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}
