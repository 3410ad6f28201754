import type { IdentityType } from '../wire/types.js';
import { compactSignals } from '../risk/index.js';
import type { CompactSignals, RiskAction, RiskVerdict } from '../risk/index.js';
import type { SecureInfo } from '../wire/types.js';
import type { HttpRequest } from '../web/request.js';
import { isSafeLocalPath } from '../web/origin.js';
import { sessionOf } from './session.js';

/**
 * What a magic-link login leaves in the session, beside Passport's own `passport.user`.
 *
 * The strategy writes it once the login has succeeded (after Passport regenerated the
 * session); the guards read it on later requests. It is kept small, since with cookie-session
 * it travels in a cookie: no raw API answers, and no token unless the session is server-side.
 */
export interface LoginRecord {
  /** Record format version, so a later format can tell an old cookie apart. */
  v: 1;
  /** The profile id of the user who logged in. */
  id: string;
  /** The identity types verified at login, for `requireIdentity()`. */
  verified: IdentityType[];
  /**
   * True when the login was handed off: the link was opened and approved on another device, so
   * `risk` describes that device, not this browser.
   */
  handoff?: boolean;
  /** Present when risk signals were fetched at login (validate-token or secure-info ran). */
  risk?: LoginRiskRecord;
  /**
   * The token of the login, kept only with a server-side session store (express-session),
   * so a guard can refetch stale signals through secure-info. Never written to a cookie.
   */
  token?: string;
}

export interface LoginRiskRecord {
  /** The signals in compact form, or `null` when the service sent none. */
  signals: CompactSignals | null;
  /** The verdict under the strategy's policy when the signals were read. */
  action: RiskAction;
  /** Epoch ms when the signals were read from the service. */
  at: number;
}

/** Key of the record in `req.session`. */
export const LOGIN_RECORD_KEY = 'otpless';

/** Reads the login record from the request's session, or `undefined` when there is none. */
export function readLoginRecord(req: { session?: unknown }): LoginRecord | undefined {
  const record = sessionOf(req)?.[LOGIN_RECORD_KEY];
  if (!record || typeof record !== 'object') return undefined;
  const candidate = record as Partial<LoginRecord>;
  if (candidate.v !== 1 || typeof candidate.id !== 'string' || !Array.isArray(candidate.verified)) {
    return undefined;
  }
  return candidate as LoginRecord;
}

/** What the record is built from: a `MagicLinkProfile` fits (the session room needs no strategy types). */
export interface LoginOutcome {
  id: string;
  identities: ReadonlyArray<{ type: IdentityType; verified: boolean }>;
  secureInfo?: SecureInfo | undefined;
}

/** Builds the small record the guards read on later requests. */
export function buildLoginRecord(
  req: HttpRequest,
  profile: LoginOutcome,
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
