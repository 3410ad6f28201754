import type { RiskVerdict } from '../risk/index.js';
import { rememberAtMost } from '../boundedMemo.js';
import { sessionIdOf, sessionOf, sessionValue } from './session.js';
import type { SessionLike } from './session.js';
import { openValue, sealSecretsOf, UNREADABLE } from './sealedSignals.js';
import { isBound, sessionUser, userText } from './recordBinding.js';
import { recordKeyById } from './recordKeys.js';
import { openSealedToken } from './sealedToken.js';
import { sameJson, shapeOfJson } from './jsonShape.js';
import type { JsonShape } from './jsonShape.js';
import { LOGIN_RECORD_KEY, sealContext, UNREADABLE_SIGNALS } from './recordFormat.js';
import type { CompactSignals } from '../risk/index.js';
import type { LoginRecord, StoredLoginRecord } from './recordFormat.js';

/** A login record found authentic in a session, with what the guards concluded from it. */
export interface CheckedLogin {
  /**
   * The record as read, its signals opened. Shared by every request whose session holds the
   * same record, user and session id: read it, never change it (`readLoginRecord` hands out
   * copies).
   */
  readonly record: LoginRecord;
  /** Verdicts on `record`'s signals, by guard (see `requireLowRisk`): its signals never change. */
  readonly verdicts: Map<string, RiskVerdict>;
}

/** What was checked, kept as data: a session holding equal data would check the same. */
interface Checked extends CheckedLogin {
  sid: string;
  user: JsonShape;
  stored: JsonShape;
  /**
   * The very list of secrets the sealed signals were opened with (or found unopenable with), or
   * `undefined` when none were sealed. `sessionCompat()` and `otplessFastify()` hand every
   * request of a setup the same frozen list, so an identity is the exact list: a route given
   * other secrets, fewer or more, has its record checked (and its signals opened) afresh.
   */
  secrets: readonly string[] | undefined;
}

/**
 * Records checked, by their `b` (a keyed digest of the record, user and session id, which no
 * one without the key can make). An entry counts for a session only while that session holds,
 * by value, what was checked: so a guard on every request costs a lookup and a comparison, not
 * a serialization and a digest, whatever objects the session middleware hands over.
 */
const CHECKED = new Map<string, Checked>();
const MAX_CHECKED = 1_000;

/** The members a record of this version may have: any other is a record this version did not write. */
const MEMBERS = new Set(['v', 'id', 'k', 'b', 'verified', 'handoff', 'risk', 'token', 'via']);

/**
 * The login record of the request's session when it is authentic (see `LoginRecord.b`), with
 * the guards' remembered verdicts; `undefined` when there is none or it does not count.
 */
export function readCheckedLogin(req: { session?: unknown }): CheckedLogin | undefined {
  const session = sessionOf(req);
  if (session === undefined) return undefined;
  const stored = sessionValue(session, LOGIN_RECORD_KEY);
  if (!isStoredRecord(stored)) return undefined;
  const known = CHECKED.get(stored.b);
  if (known && holds(known, req, session, stored)) return known;
  return check(req, session, stored);
}

/**
 * True when `stored` has the shape this version writes, member by member: what the keyed
 * digest cannot tell apart (`handoff: 1` from none, `risk: null` from none, `token: null`)
 * never reaches the guards or the app as a record.
 */
function isStoredRecord(stored: unknown): stored is StoredLoginRecord {
  if (typeof stored !== 'object' || stored === null) return false;
  const r = stored as Partial<Record<keyof StoredLoginRecord, unknown>>;
  return (
    r.v === 2 &&
    typeof r.id === 'string' &&
    typeof r.b === 'string' &&
    Array.isArray(r.verified) &&
    (r.handoff === undefined || r.handoff === true) &&
    (r.risk === undefined || (typeof r.risk === 'object' && r.risk !== null)) &&
    (r.token === undefined || typeof r.token === 'string') &&
    (r.via === undefined || r.via === 'session' || r.via === 'passkey') &&
    Object.keys(stored).every((member) => MEMBERS.has(member))
  );
}

/** True when the session holds, by value, what `known` checked (and was given the same list of secrets). */
function holds(known: Checked, req: object, session: SessionLike, stored: StoredLoginRecord): boolean {
  return (
    known.sid === sessionIdOf(session) &&
    sameJson(stored, known.stored) &&
    sameJson(sessionUser(session), known.user) &&
    (known.secrets === undefined || known.secrets === sealSecretsOf(req))
  );
}

/** Checks the stored record's binding; what passed is remembered (see `CHECKED`). */
function check(req: object, session: SessionLike, stored: StoredLoginRecord): CheckedLogin | undefined {
  const user = userText(session);
  if (!isBound(session, stored, user)) return undefined;
  // A copy, as JSON keeps it: the session's own objects stay the app's.
  const storedText = JSON.stringify(stored);
  const record = JSON.parse(storedText) as LoginRecord;
  if (stored.token !== undefined) {
    // Sealed for this session; one that does not open (an earlier version's, in clear) is no token.
    const token = openSealedToken(session, stored.id, stored.token, recordKeyById(stored.k)!);
    if (token === undefined) delete record.token;
    else record.token = token;
  }
  const risk = stored.risk;
  const sealed = risk !== undefined && 's' in risk;
  if (sealed) {
    // Signals no secret of this list opens (rotated out, altered) read as malformed: never clean.
    const signals = openValue(req, risk.s, sealContext(stored.id, risk.at));
    const opened = signals === UNREADABLE ? { ...UNREADABLE_SIGNALS } : (signals as CompactSignals | null);
    record.risk = { signals: opened, action: risk.action, at: risk.at };
  }
  const checked: Checked = {
    record,
    verdicts: new Map(),
    sid: sessionIdOf(session),
    user: shapeOfJson(user),
    stored: shapeOfJson(storedText),
    secrets: sealed ? sealSecretsOf(req) : undefined,
  };
  rememberAtMost(CHECKED, stored.b, checked, MAX_CHECKED);
  return checked;
}

/** A copy of a checked record, for whoever may change what it is given. */
export function copyRecord(record: LoginRecord): LoginRecord {
  // Object.assign, not `{ ...record, verified }`: a spread followed by a member makes a new hidden
  // class per call on Node 20 (see recordBinding.ts); the guards copy a record per request.
  const copy: LoginRecord = Object.assign({}, record, { verified: [...record.verified] });
  const risk = record.risk;
  if (risk) copy.risk = Object.assign({}, risk, { signals: risk.signals && { ...risk.signals } });
  return copy;
}
