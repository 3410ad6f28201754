import type { HttpRequest } from '../web/request.js';
import { isSafeLocalPath } from '../web/origin.js';
import { removeSessionValue, sessionOf, sessionValue, setSessionValue } from './session.js';
import type { SessionLike } from './session.js';
import { latestRecordKey } from './recordKeys.js';
import type { RecordKey } from './recordKeys.js';
import { bound, noKeyError } from './recordBinding.js';
import { withSealedToken } from './sealedToken.js';
import { LOGIN_RECORD_KEY, storedRisk } from './recordFormat.js';
import type { LoginRecord, UnboundStoredRecord } from './recordFormat.js';

type LogIn = (user: unknown, options: unknown, done?: (err?: unknown) => void) => unknown;

/**
 * Arranges for `record` to be written into the session once Passport has logged the user in.
 *
 * Passport 0.6+ regenerates the session inside `req.logIn`, dropping anything written before,
 * and offers a strategy no later hook: `success()` hands the user to `authenticate()`, which
 * logs in and then redirects or calls the app's callback. `keepSessionInfo` is the app's
 * option (and would keep everything, not this record), `serializeUser` and `transformAuthInfo`
 * belong to the app's Passport instance, and @fastify/passport has neither hook. So `req.logIn`
 * is wrapped for this one request: the record is written into the new session, bound to the
 * user Passport just put there. The same moment puts back a safe `returnTo` (also dropped by
 * the regeneration) for `successReturnToOrRedirect`, and removes an unsafe one: only paths on
 * this site are kept.
 *
 * Throws an `OtplessSetupError` (`MISSING_SESSION_SECRET`) before anything is logged in when a
 * cookie session has signals to keep and no secret to seal them with.
 *
 * `key`: the strategy's record key (`StoreSecrets.recordKey`); without it, the key of the
 * strategy built last in this process, which the guards accept as well.
 */
export function writeRecordOnLogin(req: HttpRequest, record: Omit<LoginRecord, 'k' | 'b'>, key?: RecordKey): void {
  // Passport's authenticate() (and @fastify/passport) give every request `logIn` and `login`,
  // the same function, before a strategy runs.
  const target = req as unknown as { logIn: LogIn; login: LogIn };
  const original = target.logIn;
  const returnTo = sessionValue(sessionOf(req), 'returnTo');
  // Sealed now, so a missing secret fails the login before the user is logged in.
  const stored: UnboundStoredRecord = { ...record };
  if (record.risk) stored.risk = storedRisk(req, record.id, record.risk);
  const bindKey = key ?? latestRecordKey();
  // Stryker disable next-line all: a strategy built registers a key before any login
  if (!bindKey) throw noKeyError();

  const wrapped = wrapLogIn(original, (opts) => writeRecord(req, stored, bindKey, returnTo, opts));
  target.logIn = wrapped;
  target.login = wrapped;
}

/** Writes the record into the session Passport has just logged the user into. */
function writeRecord(
  req: HttpRequest,
  stored: UnboundStoredRecord,
  key: RecordKey,
  returnTo: unknown,
  opts: { session?: boolean },
): void {
  // Not logged into the session: whoever it holds (an earlier login) must not get this record.
  if (opts.session === false) return;
  // Passport has just put the user into the session (it refuses a login without one), so both
  // the session and its user are there.
  const session = sessionOf(req) as SessionLike;
  // The token sealed for this session (the one Passport just made): no reader of the store finds it.
  setSessionValue(session, LOGIN_RECORD_KEY, bound(session, withSealedToken(session, stored, key), key));
  if (isSafeLocalPath(returnTo)) setSessionValue(session, 'returnTo', returnTo);
  else removeSessionValue(session, 'returnTo');
}

/**
 * `req.logIn` that runs `write` once the original has logged the user in, and only then: a
 * login that failed (a `serializeUser` error) leaves no record.
 */
function wrapLogIn(original: LogIn, write: (opts: { session?: boolean }) => void): LogIn {
  return function (this: unknown, user, options, done) {
    const callback = typeof options === 'function' ? (options as (err?: unknown) => void) : done;
    const opts = typeof options === 'function' || !options ? {} : (options as { session?: boolean });
    const result = original.call(this, user, opts, (err?: unknown) => {
      if (!err) write(opts);
      // Passport documents `req.logIn(user, { session: false })` without a callback.
      callback?.(err);
    });
    // @fastify/passport's logIn takes no callback and returns a promise: written once it resolves.
    if (result instanceof Promise) return result.then(() => write(opts));
    return result;
  };
}
