import { DEFAULT_AUTH_URL, DEFAULT_USER_AUTH_URL } from '../wire/endpoints.js';
import { optionError } from '../options.js';
import { intFrom } from '../options/checks.js';
import { checkOptionsArgument } from '../options/table.js';
import type { OptionTable } from '../options/table.js';

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
/** setTimeout's ceiling; a longer delay fires at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;
/** Credentials travel in headers: visible ASCII only, so no header injection and no undici error echoing them. */
const CREDENTIAL = /^[\x21-\x7e]{1,4096}$/;

/** Every option of `OtplessClient`: its check, default and line in docs/client.md. */
export const CLIENT_OPTIONS = {
  clientId: { check: credential, defaultDoc: 'required', doc: 'the client id from the OTPless dashboard' },
  clientSecret: {
    check: credential,
    defaultDoc: 'required',
    doc: 'the client secret; it never appears in an error, message or log line',
  },
  // `null` is the default too, as it has always been.
  authUrl: {
    check: (value, owner, name) => baseUrl(value ?? DEFAULT_AUTH_URL, owner, name),
    default: DEFAULT_AUTH_URL,
    doc: 'the auth host',
  },
  userAuthUrl: {
    check: (value, owner, name) => baseUrl(value ?? DEFAULT_USER_AUTH_URL, owner, name),
    default: DEFAULT_USER_AUTH_URL,
    doc: 'the user-auth host',
  },
  timeoutMs: { check: intFrom(1, MAX_TIMEOUT_MS), default: 10_000, doc: 'the whole call, body included' },
  maxResponseBytes: {
    check: intFrom(1, 2 ** 31 - 1),
    default: 1024 * 1024,
    defaultDoc: '1 MiB',
    doc: 'a larger answer is `BAD_RESPONSE`, read no further',
  },
  connections: { check: intFrom(1, 4096), default: 64, doc: 'keep-alive connections per host' },
} satisfies OptionTable<OtplessClientOptions>;

/**
 * Checks every option and fills in defaults. Throws a `TypeError` naming the bad option; the
 * message never repeats a value (it could be the secret).
 */
export function resolveOptions(given: OtplessClientOptions): ResolvedOptions {
  // Own keys only (a polluted Object.prototype is no option); a misspelt one is refused.
  const { authUrl, userAuthUrl, ...rest } = checkOptionsArgument(
    CLIENT_OPTIONS,
    OWNER,
    given,
    'an object with clientId and clientSecret',
  );
  return { ...rest, auth: authUrl, userAuth: userAuthUrl };
}

function credential(value: unknown, owner: string, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw optionError(owner, name, 'the non-empty string from the OTPless dashboard (it is required)');
  }
  if (!CREDENTIAL.test(value)) {
    throw optionError(owner, name, 'printable ASCII without spaces, at most 4096 characters');
  }
  return value;
}

function baseUrl(value: unknown, owner: string, name: string): BaseUrl {
  const problem = optionError(
    owner,
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
