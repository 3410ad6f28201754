import { compactSignals } from '../risk/index.js';
import type { RiskVerdict } from '../risk/index.js';
import type { IdentityType, SecureInfo } from '../wire/types.js';
import type { HttpRequest } from '../web/request.js';
import { sessionOf, setSessionValue } from './session.js';
import type { SessionLike } from './session.js';
import { latestRecordKey, recordKeyById } from './recordKeys.js';
import { bound, noKeyError } from './recordBinding.js';
import { withSealedToken } from './sealedToken.js';
import { copyRecord, readCheckedLogin } from './checkedLogins.js';
import { LOGIN_RECORD_KEY, storedRisk } from './recordFormat.js';
import type { LoginRecord, LoginRiskRecord } from './recordFormat.js';

export { LOGIN_RECORD_KEY } from './recordFormat.js';
export type { LoginRecord, LoginRiskRecord } from './recordFormat.js';
export { writeRecordOnLogin } from './writeOnLogin.js';

/**
 * Reads the login record from the request's session, or `undefined` when there is none, when
 * it was written for another user or session than the ones it is now in, when anything in it
 * changed since the package wrote it, or when it is of an older format (see `b`). Sealed
 * signals come back opened. The record is the caller's own copy: changing it changes neither
 * the session nor what the guards read.
 */
export function readLoginRecord(req: { session?: unknown }): LoginRecord | undefined {
  const login = readCheckedLogin(req);
  return login && copyRecord(login.record);
}

/**
 * Replaces the risk part of `record`, just read from this request's session (a guard that
 * refetched the signals), sealing the signals when the session is a cookie.
 */
export function writeLoginRisk(req: HttpRequest, record: LoginRecord, risk: LoginRiskRecord): void {
  // The session the record was read from. A whole new record: a change inside the stored one is
  // lost with @fastify/secure-session.
  const session = sessionOf(req) as SessionLike;
  const key = recordKeyById(record.k) ?? latestRecordKey();
  if (!key) throw noKeyError();
  // A copy as JSON keeps it: `record` may be the one the guards share, which the session (and
  // whoever changes it) must not hold.
  const copy = JSON.parse(JSON.stringify(record)) as LoginRecord;
  // Object.assign: a spread followed by a member makes a new hidden class per call on Node 20 (recordBinding.ts).
  const stored = withSealedToken(session, Object.assign({}, copy, { risk: storedRisk(req, record.id, risk) }), key);
  setSessionValue(session, LOGIN_RECORD_KEY, bound(session, stored, key));
}

/** What the record is built from: a `MagicLinkProfile` fits (the session room needs no strategy types). */
export interface LoginOutcome {
  id: string;
  identities: ReadonlyArray<{ type: IdentityType; verified: boolean }>;
  secureInfo?: SecureInfo | undefined;
}

/** A record before it is written: `k` and `b` bind it to the session and user Passport puts in it then. */
export type UnboundLoginRecord = Omit<LoginRecord, 'k' | 'b'>;

/** Builds the small record the guards read on later requests. */
export function buildLoginRecord(
  req: HttpRequest,
  profile: LoginOutcome,
  risk: RiskVerdict | undefined,
  token: string,
  now: number,
): UnboundLoginRecord {
  // The verified types, each once, in the order first seen (a loop: this runs on every login).
  const verified: IdentityType[] = [];
  for (const i of profile.identities) if (i.verified && !verified.includes(i.type)) verified.push(i.type);
  const record: UnboundLoginRecord = { v: 2, id: profile.id, verified };
  if (risk) {
    record.risk = { signals: compactSignals(profile.secureInfo), action: risk.action, at: now };
  }
  // Only a server-side store keeps the token out of the browser; a cookie session never gets it.
  // It is sealed for the session when written (src/session/sealedToken.ts).
  if (req.sessionStore) record.token = token;
  return record;
}
