import { createHash } from 'node:crypto';
import { rememberAtMost } from '../boundedMemo.js';
import { checkGuardOptions, createGuard, GUARD_OPTIONS } from './core.js';
import type { GuardMiddleware, GuardOptions } from './core.js';
import { refuse } from './refuse.js';
import { setupOf } from '../login/compose.js';
import { intFrom } from '../options/checks.js';
import type { OptionTable } from '../options/table.js';
import { isRejectedByService, serviceFailure } from '../login/failures.js';

/** Options of `requireServiceSession()`. */
export interface RequireServiceSessionOptions extends GuardOptions {
  /**
   * How long a session the service confirmed active is taken as active, in ms, before the guard
   * asks again: a guarded route does not call the service on every request. Default 60 000.
   */
  recheckAfterMs?: number;
}

/** Every option of `requireServiceSession()`: its check, default and one-line doc. */
export const REQUIRE_SERVICE_SESSION_OPTIONS = {
  ...GUARD_OPTIONS,
  recheckAfterMs: {
    check: intFrom(0, 86_400_000),
    default: 60_000,
    doc: 'how long a session the service confirmed active is taken as active before the guard asks again',
  },
} satisfies OptionTable<RequireServiceSessionOptions>;

const OWNER = 'requireServiceSession';
/** Sessions whose answer is remembered at once, at most (oldest out). */
const MAX_REMEMBERED = 10_000;

/**
 * A guard for logins by the service's session token: it asks get-session-details whether the
 * service session behind the login is still active (at most once per `recheckAfterMs` per
 * session), and answers 401 `SESSION_ENDED` once the service says it has ended (expired,
 * logged out), failing closed. A login by link or frontend token has no service session to ask
 * about and passes. The session token is kept only with a server-side session store
 * (express-session, @fastify/session): a session-token login in a cookie session cannot be
 * asked about, and is refused here.
 *
 * @example
 * app.get('/account', requireServiceSession(strategy, { loginUrl: '/auth/sign-in' }), showAccount);
 */
export function requireServiceSession(strategy: object, options?: RequireServiceSessionOptions): GuardMiddleware {
  const setup = setupOf(`${OWNER}()`, strategy);
  const checked = checkGuardOptions(OWNER, options, REQUIRE_SERVICE_SESSION_OPTIONS);
  const { recheckAfterMs } = checked;
  // Digest of a session token -> epoch ms until which the service's "active" is taken as it is.
  const activeUntil = new Map<string, number>();
  return createGuard(OWNER, checked, async (req, res, next, record) => {
    if (record.via !== 'session') return next();
    const token = record.token;
    if (token === undefined) return refuse(req, res, 'SESSION_ENDED', checked.loginUrl);
    // Keyed by a digest: the memo never holds a session token.
    const key = createHash('sha256').update(token).digest('base64url');
    const now = Date.now();
    if ((activeUntil.get(key) ?? 0) > now) return next();
    try {
      await setup.client.getSessionDetails(token);
    } catch (err) {
      activeUntil.delete(key);
      if (isRejectedByService(err)) return refuse(req, res, 'SESSION_ENDED', checked.loginUrl);
      // The service could not tell: the route is not served on a guess (503/504).
      return next(serviceFailure(err));
    }
    rememberAtMost(activeUntil, key, now + recheckAfterMs, MAX_REMEMBERED);
    next();
  });
}
