import type { IdentityType } from '../wire/types.js';
import type { CompactSignals } from '../risk/compact.js';
import type { RiskAction } from '../risk/policy.js';
import { sessionOf } from './http.js';

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
