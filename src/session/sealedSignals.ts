import { deriveKey, openJson, sealJson, UNOPENED } from '../crypto.js';
import { OtplessSetupError } from '../errors/index.js';
import { rememberAtMost } from '../boundedMemo.js';

/**
 * Encryption of the login's risk signals for sessions that live in a cookie.
 *
 * A cookie-session cookie is signed, not encrypted: its holder can base64-decode it. The
 * signals would tell someone who was challenged which signal to hide (a VPN, developer tools)
 * before trying again. So with a cookie session they are sealed with AES-256-GCM under a key
 * derived from the app's secret, and only the verdict and its time stay readable. A
 * server-side session (express-session) keeps them in the clear, on the server.
 */

/**
 * The secrets `sessionCompat()` (or `otplessFastify()`) found for each request, by request: kept
 * beside the request, not on it, so no inspection of the request (`util.inspect(req,
 * { showHidden: true })`, a logger that walks symbols) shows them. A closure on `globalThis`, so
 * two copies of the package (one imported, one required) share it, and inspecting that shows
 * nothing either.
 */
interface SecretsByRequest {
  set(req: object, secrets: readonly string[]): void;
  get(req: object): readonly string[] | undefined;
}

function newSecretsByRequest(): SecretsByRequest {
  const byRequest = new WeakMap<object, readonly string[]>();
  return Object.freeze({
    set: (req: object, secrets: readonly string[]) => void byRequest.set(req, secrets),
    get: (req: object) => byRequest.get(req),
  });
}

// Stryker disable next-line StringLiteral: equivalent; the key is shared by two package copies
const SLOT = Symbol.for('passport-otpless.sealSecrets');
const SECRETS: SecretsByRequest =
  ((globalThis as Record<symbol, unknown>)[SLOT] as SecretsByRequest | undefined) ?? newSecretsByRequest();
Object.defineProperty(globalThis, SLOT, { value: SECRETS, configurable: true, enumerable: false });

/**
 * Gives this request the secrets to seal with: the first seals, every one opens (so a secret
 * can be rotated like cookie-session's `keys`, newest first).
 */
export function setSealSecrets(req: object, secrets: readonly string[]): void {
  SECRETS.set(req, secrets);
}

const NONE: readonly string[] = Object.freeze([]);

/** The secrets `sessionCompat()` found for this request; empty when there are none. */
export function sealSecretsOf(req: object): readonly string[] {
  return SECRETS.get(req) ?? NONE;
}

/** Derived keys, by secret: deriving costs more than the decryption itself. Few secrets ever exist. */
const KEYS = new Map<string, Buffer>();
const MAX_KEYS = 32;

function keyOf(secret: string): Buffer {
  // A key of its own for this purpose, so the cookie-signing key is never used to encrypt.
  return KEYS.get(secret) ?? rememberAtMost(KEYS, secret, deriveKey(secret, 'login record signals v1'), MAX_KEYS);
}

/** Thrown at login when a cookie session has risk signals to keep and no secret to seal them with. */
export function missingSecretError(): OtplessSetupError {
  return new OtplessSetupError(
    'MISSING_SESSION_SECRET',
    'passport-otpless keeps the risk signals of a login encrypted in a cookie session, and found no secret: ' +
      'on Fastify, register otplessFastify({ secret: process.env.SIGNALS_SECRET }); otherwise ' +
      'use cookieSession({ keys: [...] }) (not signed: false) followed by app.use(sessionCompat()), or pass ' +
      'sessionCompat({ secret: process.env.SESSION_SECRET }), or use a server-side session (express-session).',
  );
}

/**
 * Seals `value` (JSON) for this request's session: `iv.tag.ciphertext` in base64url. `context`
 * is authenticated too, so a sealed value only opens in the record it was written for.
 */
export function sealValue(req: object, value: unknown, context: string): string {
  const secret = sealSecretsOf(req)[0];
  if (secret === undefined) throw missingSecretError();
  return sealJson(keyOf(secret), value, context);
}

/** What `openValue` gives when no secret of this request opens the value (rotated out, altered). */
export const UNREADABLE = Symbol('unreadable');

/** The value `sealValue` sealed, or `UNREADABLE`. Never throws. (What opened is remembered with its record: see checkedLogins.ts.) */
export function openValue(req: object, sealed: unknown, context: string): unknown {
  return open(sealSecretsOf(req), sealed, context);
}

/** The first secret that opens it wins; a rotated-out or altered value is `UNREADABLE`. */
function open(secrets: readonly string[], sealed: unknown, context: string): unknown {
  for (const secret of secrets) {
    const value = openJson(keyOf(secret), sealed, context);
    if (value !== UNOPENED) return value;
  }
  return UNREADABLE;
}
