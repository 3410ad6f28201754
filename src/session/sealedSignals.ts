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

/**
 * Values already opened, per list of secrets, by sealed text: a guard runs on every request,
 * and opening costs several times the whole decision. Safe to reuse, since GCM authenticates
 * what it opens: the same sealed text under the same secrets and context always opens to the
 * same value. The context is kept beside the value and compared, so a sealed text moved into
 * another record (another context) is opened, and refused, again.
 */
const OPENED = new WeakMap<readonly string[], Map<string, Opened>>();
const MAX_OPENED = 1_000;

interface Opened {
  context: string;
  value: unknown;
}

/**
 * Objects `openValue` handed out: frozen and shared by every request that opens the same sealed
 * text, so whoever reads one may remember what it concluded from it.
 */
const SHARED = new WeakSet<object>();

/** The value `sealValue` sealed, or `UNREADABLE`. Never throws. */
export function openValue(req: object, sealed: unknown, context: string): unknown {
  const secrets = sealSecretsOf(req);
  const memo = OPENED.get(secrets) ?? newMemo(secrets);
  // One lookup by the sealed text (anything but a string finds nothing, and `openJson` refuses
  // it); the context is compared, not hashed with it.
  const hit = memo.get(sealed as string);
  if (hit?.context === context) return hit.value;
  const value = open(secrets, sealed, context);
  // Only what opened is kept (oldest first out: sessions in use are opened again at their next
  // request). Keeping a refusal too would change nothing but what an altered cookie may evict.
  // Stryker disable next-line all: a memo; its mutants change only how often a value is opened
  if (value !== UNREADABLE) rememberAtMost(memo, sealed as string, { context, value: share(value) }, MAX_OPENED);
  return value;
}

function newMemo(secrets: readonly string[]): Map<string, Opened> {
  const memo = new Map<string, Opened>();
  OPENED.set(secrets, memo);
  return memo;
}

/**
 * True for an object `openValue` gave: authenticated, frozen and shared, so a pure judgement of
 * it (with the same other inputs) may be remembered by its identity. (A WeakSet holds no
 * primitive: `has` answers false for one.)
 */
export function isOpenedValue(value: unknown): boolean {
  return SHARED.has(value as object);
}

/**
 * Freezes and marks as shared what was opened, which is what `sealValue` sealed: compact
 * signals, flat (strings and numbers), or `null` when the service sent none (a WeakSet cannot
 * hold `null`).
 */
function share(value: unknown): unknown {
  if (value !== null) SHARED.add(Object.freeze(value as object));
  return value;
}

/** The first secret that opens it wins; a rotated-out or altered value is `UNREADABLE`. */
function open(secrets: readonly string[], sealed: unknown, context: string): unknown {
  for (const secret of secrets) {
    const value = openJson(keyOf(secret), sealed, context);
    if (value !== UNOPENED) return value;
  }
  return UNREADABLE;
}
