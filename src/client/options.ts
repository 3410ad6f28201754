import { DEFAULT_AUTH_URL, DEFAULT_USER_AUTH_URL } from '../wire/endpoints.js';
import { intOption, optionError, optionsObject, refuseUnknownOptions } from '../options.js';

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

const OWNER = 'OtplessClient';
/** Every option, by name: a key not here is a typo. */
const OPTION_NAMES = Object.keys({
  clientId: true,
  clientSecret: true,
  authUrl: true,
  userAuthUrl: true,
  timeoutMs: true,
  maxResponseBytes: true,
  connections: true,
} satisfies Record<keyof OtplessClientOptions, true>);
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
export function resolveOptions(given: OtplessClientOptions): ResolvedOptions {
  // Own keys only: an entry on a polluted Object.prototype is never an option.
  const options = optionsObject<OtplessClientOptions>(OWNER, given, 'an object with clientId and clientSecret');
  refuseUnknownOptions(OWNER, options, OPTION_NAMES);
  return {
    clientId: credential(options.clientId, 'clientId'),
    clientSecret: credential(options.clientSecret, 'clientSecret'),
    auth: baseUrl(options.authUrl ?? DEFAULT_AUTH_URL, 'authUrl'),
    userAuth: baseUrl(options.userAuthUrl ?? DEFAULT_USER_AUTH_URL, 'userAuthUrl'),
    timeoutMs: intOption(OWNER, options, 'timeoutMs', 1, MAX_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: intOption(OWNER, options, 'maxResponseBytes', 1, 2 ** 31 - 1) ?? DEFAULT_MAX_RESPONSE_BYTES,
    connections: intOption(OWNER, options, 'connections', 1, 4096) ?? DEFAULT_CONNECTIONS,
  };
}

function credential(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw optionError(OWNER, name, 'the non-empty string from the OTPless dashboard (it is required)');
  }
  if (!CREDENTIAL.test(value)) {
    throw optionError(OWNER, name, 'printable ASCII without spaces, at most 4096 characters');
  }
  return value;
}

function baseUrl(value: unknown, name: string): BaseUrl {
  const problem = optionError(
    OWNER,
    name,
    'an absolute http(s) URL without credentials, query or fragment, such as https://auth.otpless.app',
  );
  if (typeof value !== 'string') throw problem;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw problem;
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
    throw problem;
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}
