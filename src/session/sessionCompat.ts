import { sessionOf } from './session.js';
import type { SessionLike } from './session.js';
import type { ServerResponse } from 'node:http';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { optionError } from '../options.js';
import { checkOptionsArgument } from '../options/table.js';
import type { OptionTable } from '../options/table.js';
import { setSealSecrets } from './sealedSignals.js';
import { rememberAtMost } from '../boundedMemo.js';
import { linkResponse } from '../web/host.js';

/** Options of `sessionCompat()`. */
export interface SessionCompatOptions {
  /**
   * The secret that encrypts the login's risk signals in the cookie (or a list, newest first:
   * the first encrypts, each one decrypts). Default: cookie-session's own `keys` (or `secret`),
   * from which a separate key is derived. Give it when cookie-session gets a Keygrip instance
   * or `signed: false`, or to keep the two secrets apart.
   */
  secret?: string | string[];
}

const OWNER = 'sessionCompat()';

/** Every option of `sessionCompat()`: its check and one-line doc. */
export const SESSION_COMPAT_OPTIONS = {
  secret: {
    check: checkSecret,
    defaultDoc: "cookie-session's own `keys` (or `secret`)",
    doc: "the secret that encrypts the login's risk signals in the cookie, or a list of them, newest first",
  },
} satisfies OptionTable<SessionCompatOptions>;

/**
 * Middleware that gives cookie-session the `regenerate()` and `save()` methods Passport 0.6+
 * calls on login and logout. Without it a login with cookie-session answers 500
 * "req.session.regenerate is not a function" (passport#904).
 *
 * `regenerate` starts a new, empty session object (Passport's `keepSessionInfo` can still copy
 * the old one over), and clears the cookie if the session is still empty when the response
 * goes out (after a logout); `save` does nothing, since cookie-session writes the cookie
 * itself when the response is sent. With a cookie store there is no server-side session id to fix, so this
 * is safe. Sessions that already have both methods (express-session) are left alone.
 *
 * It also hands the strategy and the guards the secret that encrypts the login's risk
 * signals in the cookie, so the cookie's holder cannot read which signal raised a verdict.
 *
 * @example
 * app.use(cookieSession({ name: 'session', keys: [process.env.SESSION_KEY] }));
 * app.use(sessionCompat());
 * app.use(passport.session());
 */
export function sessionCompat(
  given?: SessionCompatOptions,
): (req: HttpRequest, res: ServerResponse, next: NextFunction) => void {
  // Own keys only (a polluted Object.prototype.secret is no option); a misspelt one is refused.
  const secrets =
    given === undefined ? undefined : checkOptionsArgument(SESSION_COMPAT_OPTIONS, OWNER, given, 'an object').secret;
  return function sessionCompatMiddleware(req, res, next) {
    const found = secrets ?? cookieSessionSecrets(req);
    if (found.length > 0) setSealSecrets(req, found);
    const session = sessionOf(req);
    if (session) patch(req, res, session);
    // Connect sets no req.res: the strategy's pages find the response through this link.
    linkResponse(req, res);
    next();
  };
}

function checkSecret(secret: unknown, owner: string, name: string): readonly string[] | undefined {
  if (secret === undefined) return undefined;
  const list = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw optionError(owner, name, 'a non-empty string, or a non-empty array of them (newest first)');
  }
  return Object.freeze([...(list as string[])]);
}

/**
 * The secrets cookie-session was given, from `req.sessionOptions` (its documented per-request
 * copy of the options): `keys` as an array of strings, or `secret`. A Keygrip instance hides
 * its keys, so then `sessionCompat({ secret })` is needed.
 */
function cookieSessionSecrets(req: HttpRequest): readonly string[] {
  const options = (req as HttpRequest & { sessionOptions?: { keys?: unknown; secret?: unknown } }).sessionOptions;
  if (!options || typeof options !== 'object') return NO_SECRETS;
  const { keys, secret } = options;
  if (Array.isArray(keys)) {
    // The same array on every request (cookie-session's options): one list of ours for it, so
    // what was derived and opened under it is found again.
    let secrets = FROM_KEYS.get(keys);
    if (!secrets) {
      secrets = Object.freeze(keys.filter((key): key is string => typeof key === 'string' && key.length > 0));
      FROM_KEYS.set(keys, secrets);
    }
    return secrets;
  }
  if (typeof secret !== 'string' || secret.length === 0) return NO_SECRETS;
  return FROM_SECRET.get(secret) ?? rememberAtMost(FROM_SECRET, secret, Object.freeze([secret]), 32);
}

const NO_SECRETS: readonly string[] = Object.freeze([]);
const FROM_KEYS = new WeakMap<unknown[], readonly string[]>();
const FROM_SECRET = new Map<string, readonly string[]>();

function patch(req: HttpRequest, res: ServerResponse, session: SessionLike): void {
  if (typeof session.regenerate !== 'function') {
    // Not enumerable: cookie-session serializes and counts enumerable keys only.
    Object.defineProperty(session, 'regenerate', {
      configurable: true,
      value(callback: (err?: unknown) => void) {
        req.session = {};
        const fresh = sessionOf(req);
        if (fresh) patch(req, res, fresh);
        clearIfEmptyOnHeaders(req, res);
        callback();
      },
    });
  }
  if (typeof session.save !== 'function') {
    Object.defineProperty(session, 'save', {
      configurable: true,
      value(callback?: (err?: unknown) => void) {
        callback?.();
      },
    });
  }
}

/**
 * Marks the `writeHead` wrapper itself, so a response is wrapped once. Not a mark on the
 * response: a property the response lacks is looked up through Express's long prototype chain,
 * and an added one changes the response's shape, both of which a login paid for.
 */
const CLEAR_HOOK = Symbol('passport-otpless.clearIfEmpty');

/**
 * cookie-session never writes a new session that is empty, so after a logout the old cookie,
 * with the user in it, would stay. Setting `req.session = null` is cookie-session's way to
 * clear the cookie; it must happen before cookie-session's own header hook runs, and a
 * wrapper added to `writeHead` now runs before the one cookie-session added earlier.
 */
function clearIfEmptyOnHeaders(req: HttpRequest, res: ServerResponse): void {
  const writeHead = res.writeHead as ServerResponse['writeHead'] & { [CLEAR_HOOK]?: true };
  if (writeHead[CLEAR_HOOK]) return;
  // Handed to `marked`, not bound to a name: the build keeps names (keepNames), which would
  // define the wrapper's `name` on every login.
  res.writeHead = marked(function (this: ServerResponse, ...args: unknown[]) {
    const session = sessionOf(req);
    if (session && Object.keys(session).length === 0) req.session = null;
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  }) as ServerResponse['writeHead'];
}

function marked<F extends object>(wrapper: F): F & { [CLEAR_HOOK]: true } {
  return Object.assign(wrapper, { [CLEAR_HOOK]: true as const });
}
