import { compactSignals } from '../risk/index.js';
import type { RiskVerdict } from '../risk/index.js';
import { sessionOf } from './http.js';
import type { HttpRequest } from './http.js';
import { LOGIN_RECORD_KEY } from './loginRecord.js';
import type { LoginRecord } from './loginRecord.js';
import type { MagicLinkProfile } from './profile.js';
import { isSafeLocalPath } from './safeRedirect.js';

/** Builds the small record the guards read on later requests. */
export function buildLoginRecord(
  req: HttpRequest,
  profile: MagicLinkProfile,
  risk: RiskVerdict | undefined,
  token: string,
  now: number,
): LoginRecord {
  const record: LoginRecord = {
    v: 1,
    id: profile.id,
    verified: [...new Set(profile.identities.filter((i) => i.verified).map((i) => i.type))],
  };
  if (risk) {
    record.risk = { signals: compactSignals(profile.secureInfo), action: risk.action, at: now };
  }
  // Only a server-side store keeps the token out of the browser; a cookie session never gets it.
  if (req.sessionStore) record.token = token;
  return record;
}

type LogIn = (user: unknown, options: unknown, done?: (err?: unknown) => void) => unknown;

/**
 * Arranges for `record` to be written into the session once Passport has logged the user in.
 *
 * Passport 0.6+ regenerates the session inside `req.logIn`, dropping anything written before;
 * wrapping `req.logIn` for this one request writes the record into the new session. The same
 * moment puts back a safe `returnTo` (also dropped by the regeneration) for
 * `successReturnToOrRedirect`, and removes an unsafe one: only paths on this site are kept.
 */
export function writeRecordOnLogin(req: HttpRequest, record: LoginRecord): void {
  const target = req as unknown as { logIn?: LogIn; login?: LogIn };
  const original = target.logIn ?? target.login;
  if (typeof original !== 'function') return;
  const returnTo = sessionOf(req)?.returnTo;

  const wrapped: LogIn = function (this: unknown, user, options, done) {
    const callback = typeof options === 'function' ? (options as (err?: unknown) => void) : done;
    const opts = typeof options === 'function' || !options ? {} : (options as { session?: boolean });
    return original.call(this, user, opts, (err?: unknown) => {
      const session = sessionOf(req);
      if (!err && opts.session !== false && session) {
        session[LOGIN_RECORD_KEY] = record;
        if (isSafeLocalPath(returnTo)) session.returnTo = returnTo;
        else delete session.returnTo;
      }
      callback?.(err);
    });
  };
  target.logIn = wrapped;
  target.login = wrapped;
}
