import type { CompactSignals, RiskAction } from '../risk/index.js';
import type { IdentityType } from '../wire/types.js';
import type { HttpRequest } from '../web/request.js';
import { sealValue } from './sealedSignals.js';

/**
 * What a magic-link login leaves in the session, beside Passport's own `passport.user`.
 *
 * The strategy writes it once the login has succeeded (after Passport regenerated the
 * session); the guards read it on later requests, through `readLoginRecord`. It is kept small,
 * since with cookie-session it travels in a cookie: no raw API answers, no token unless the
 * session is server-side, and the signals only encrypted (the cookie's holder sees the verdict
 * and its time, never which signal raised it).
 */
export interface LoginRecord {
  /** Record format version, so a later format can tell an old cookie apart. */
  v: 2;
  /** The profile id of the user who logged in. */
  id: string;
  /** The id of the key `b` was made with (see src/session/recordKeys.ts). */
  k: string;
  /**
   * A keyed digest (HMAC-SHA256 under a key from the strategy's store secret) of the whole
   * record, the serialized user (`req.session.passport.user`) the login put in the session and
   * the id of a server-side session. The record counts only while all three are unchanged: a
   * writer of the session store cannot make one, change one, or move one into a session whose
   * cookie it holds; and another strategy that logs someone else in with `keepSessionInfo`
   * keeps the record, but `readLoginRecord` ignores it.
   */
  b: string;
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
   * so a guard can refetch stale signals through secure-info. Never written to a cookie. The
   * session holds it sealed for that session (src/session/sealedToken.ts); a record read back
   * has it opened.
   */
  token?: string;
  /**
   * `'session'` for a login by the service's session token: `token` is that session token.
   * `'passkey'` for a sign-in with a passkey: no message, no service call, no risk signals;
   * `verified` holds what the link login that registered the passkey verified.
   */
  via?: 'session' | 'passkey';
}

export interface LoginRiskRecord {
  /**
   * The signals in compact form, or `null` when the service sent none. Read back from a cookie
   * that no secret of the app opens (a rotated-out secret, an altered cookie), they read as
   * malformed (`{ v: 1, f: '!' }`), which the guards judge as `block` by default.
   */
  signals: CompactSignals | null;
  /** The verdict under the strategy's policy when the signals were read. */
  action: RiskAction;
  /** Epoch ms when the signals were read from the service. */
  at: number;
}

/** How `risk` is kept in a cookie session: the signals sealed in `s`, nothing that names them. */
export interface SealedRiskRecord {
  action: RiskAction;
  at: number;
  /** `signals` (JSON), AES-256-GCM under the app's secret (see `sessionCompat`). */
  s: string;
}

/** The record as the session holds it: with a cookie session, its signals sealed. */
export type StoredLoginRecord = Omit<LoginRecord, 'risk'> & { risk?: LoginRiskRecord | SealedRiskRecord };

/** A stored record before it is bound to its session and user. */
export type UnboundStoredRecord = Omit<StoredLoginRecord, 'k' | 'b'>;

/** Key of the record in `req.session`. */
export const LOGIN_RECORD_KEY = 'otpless';

/** What signals read as when they cannot be opened: malformed, so they never pass for clean. */
export const UNREADABLE_SIGNALS: CompactSignals = { v: 1, f: '!' };

/** Sealed signals open only in the record of the same login. */
export function sealContext(id: string, at: number): string {
  return `login record\0${id}\0${at}`;
}

/** A server-side session keeps the signals as they are; a cookie session keeps them sealed. */
export function storedRisk(req: HttpRequest, id: string, risk: LoginRiskRecord): LoginRiskRecord | SealedRiskRecord {
  if (req.sessionStore) return risk;
  return { action: risk.action, at: risk.at, s: sealValue(req, risk.signals, sealContext(id, risk.at)) };
}
