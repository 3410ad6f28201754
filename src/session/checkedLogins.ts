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
  /** The secrets the sealed signals were opened with, or `undefined` when none were sealed. */
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

/**
 * The login record of the request's session when it is authentic (see `LoginRecord.b`), with
 * the guards' remembered verdicts; `undefined` when there is none or it does not count.
 */
export function readCheckedLogin(req: { session?: unknown }): CheckedLogin | undefined {
  const session = sessionOf(req);
  const stored = sessionValue(session, LOGIN_RECORD_KEY);
  if (!session || !stored) return undefined;
  const b = (stored as { b?: unknown }).b;
  const known = typeof b === 'string' ? CHECKED.get(b) : undefined;
  if (known && holds(known, req, session, stored)) return known;
  return check(req, session, stored);
}

/** True when the session holds, by value, what `known` checked (and the same secrets open its signals). */
function holds(known: Checked, req: object, session: SessionLike, stored: unknown): boolean {
  return (
    known.sid === sessionIdOf(session) &&
    sameJson(stored, known.stored) &&
    sameJson(sessionUser(session), known.user) &&
    (known.secrets === undefined || sameSecrets(sealSecretsOf(req), known.secrets))
  );
}

function sameSecrets(secrets: readonly string[], known: readonly string[]): boolean {
  if (secrets.length !== known.length) return false;
  for (let i = 0; i < known.length; i++) if (secrets[i] !== known[i]) return false;
  return true;
}

/** Checks the stored record in full; what passed is remembered (see `CHECKED`). */
function check(req: object, session: SessionLike, stored: unknown): CheckedLogin | undefined {
  // Any other value (a string, a number) fails the checks below.
  const candidate = stored as Partial<StoredLoginRecord>;
  if (candidate.v !== 2 || typeof candidate.id !== 'string' || !Array.isArray(candidate.verified)) {
    return undefined;
  }
  const user = userText(session);
  if (!isBound(session, candidate as StoredLoginRecord, user)) return undefined;
  // A copy, as JSON keeps it: the session's own objects stay the app's.
  const storedText = JSON.stringify(candidate);
  const record = JSON.parse(storedText) as LoginRecord;
  if (candidate.token !== undefined) {
    // Sealed for this session; one that does not open (an earlier version's, in clear) is no token.
    const token = openSealedToken(session, candidate.id, candidate.token, recordKeyById(candidate.k)!);
    if (token === undefined) delete record.token;
    else record.token = token;
  }
  const risk = candidate.risk;
  const sealed = risk !== undefined && 's' in risk;
  if (sealed) {
    const signals = openValue(req, risk.s, sealContext(candidate.id, risk.at));
    if (signals === UNREADABLE) {
      // Not remembered: a secret added later may open them.
      record.risk = { signals: { ...UNREADABLE_SIGNALS }, action: risk.action, at: risk.at };
      return { record, verdicts: new Map() };
    }
    record.risk = { signals: signals as CompactSignals | null, action: risk.action, at: risk.at };
  }
  const checked: Checked = {
    record,
    verdicts: new Map(),
    sid: sessionIdOf(session),
    user: shapeOfJson(user),
    stored: shapeOfJson(storedText),
    secrets: sealed ? [...sealSecretsOf(req)] : undefined,
  };
  rememberAtMost(CHECKED, candidate.b as string, checked, MAX_CHECKED);
  return checked;
}

/** A copy of a checked record, for whoever may change what it is given. */
export function copyRecord(record: LoginRecord): LoginRecord {
  const copy: LoginRecord = { ...record, verified: [...record.verified] };
  const risk = record.risk;
  if (risk) copy.risk = { ...risk, signals: risk.signals && { ...risk.signals } };
  return copy;
}
