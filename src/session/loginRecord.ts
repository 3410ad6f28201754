import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IdentityType } from '../wire/types.js';
import { compactSignals } from '../risk/index.js';
import type { CompactSignals, RiskAction, RiskVerdict } from '../risk/index.js';
import type { SecureInfo } from '../wire/types.js';
import type { HttpRequest } from '../web/request.js';
import { isSafeLocalPath } from '../web/origin.js';
import { removeSessionValue, sessionIdOf, sessionOf, setSessionValue } from './session.js';
import type { SessionLike } from './session.js';
import { openValue, sealValue, UNREADABLE } from './sealedSignals.js';
import { rememberAtMost } from '../boundedMemo.js';
import { latestRecordKey, recordKeyById } from './recordKeys.js';
import type { RecordKey } from './recordKeys.js';

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
   * so a guard can refetch stale signals through secure-info. Never written to a cookie.
   */
  token?: string;
  /** `'session'` for a login by the service's session token: `token` is that session token. */
  via?: 'session';
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
interface SealedRiskRecord {
  action: RiskAction;
  at: number;
  /** `signals` (JSON), AES-256-GCM under the app's secret (see `sessionCompat`). */
  s: string;
}

type StoredLoginRecord = Omit<LoginRecord, 'risk'> & { risk?: LoginRiskRecord | SealedRiskRecord };

/** A stored record before it is bound to its session and user. */
type UnboundStoredRecord = Omit<StoredLoginRecord, 'k' | 'b'>;

/** Key of the record in `req.session`. */
export const LOGIN_RECORD_KEY = 'otpless';

/** What signals read as when they cannot be opened: malformed, so they never pass for clean. */
const UNREADABLE_SIGNALS: CompactSignals = { v: 1, f: '!' };

/**
 * Reads the login record from the request's session, or `undefined` when there is none, when
 * it was written for another user or session than the ones it is now in, when anything in it
 * changed since the package wrote it, or when it is of an older format (see `b`). Sealed
 * signals come back opened; a record from a server-side session is the stored object itself.
 */
export function readLoginRecord(req: { session?: unknown }): LoginRecord | undefined {
  const session = sessionOf(req);
  const record = session?.[LOGIN_RECORD_KEY];
  if (!session || !record) return undefined;
  // Any other value (a string, a number) fails the checks below.
  const candidate = record as Partial<StoredLoginRecord>;
  if (candidate.v !== 2 || typeof candidate.id !== 'string' || !Array.isArray(candidate.verified)) {
    return undefined;
  }
  if (!isAuthentic(session, candidate as StoredLoginRecord)) return undefined;
  const risk = candidate.risk;
  if (!risk || !('s' in risk)) return candidate as LoginRecord;
  const signals = openValue(req, risk.s, sealContext(candidate.id, risk.at));
  return {
    ...(candidate as StoredLoginRecord),
    risk: {
      signals: signals === UNREADABLE ? UNREADABLE_SIGNALS : (signals as CompactSignals | null),
      action: risk.action,
      at: risk.at,
    },
  };
}

/**
 * Replaces the risk part of `record`, just read from this request's session by
 * `readLoginRecord` (a guard that refetched the signals), sealing the signals when the session
 * is a cookie.
 */
export function writeLoginRisk(req: HttpRequest, record: LoginRecord, risk: LoginRiskRecord): void {
  // The session the record was read from. A whole new record: a change inside the stored one is
  // lost with @fastify/secure-session.
  const session = sessionOf(req) as SessionLike;
  const key = recordKeyById(record.k) ?? latestRecordKey();
  if (!key) throw noKeyError();
  setSessionValue(
    session,
    LOGIN_RECORD_KEY,
    bound(session, { ...record, risk: storedRisk(req, record.id, risk) }, key),
  );
}

/**
 * The record with its key id and its keyed digest over the record, user and session (see `b`);
 * a `k` and `b` it had are replaced.
 */
function bound(session: SessionLike, record: UnboundStoredRecord, key: RecordKey): StoredLoginRecord {
  const stored: StoredLoginRecord = { ...record, k: key.id, b: '' };
  stored.b = macOf(key, boundText(session, stored));
  return stored;
}

/**
 * True when the record's `b` is the keyed digest of what it holds, in this session, for this
 * user, under a key of this process. A check that passed is remembered by its text (what an
 * HMAC was computed over), so a guard on every request costs a lookup, not a digest.
 */
function isAuthentic(session: SessionLike, record: StoredLoginRecord): boolean {
  // The same record object checked before (several guards on a route, or a session object kept
  // between requests): it is frozen, so only the session's id and user can have changed.
  const seen = AUTHENTIC.get(record);
  if (seen && seen.sid === sessionIdOf(session) && seen.user === userText(session)) return true;
  if (typeof record.b !== 'string') return false;
  const key = recordKeyById(record.k);
  if (!key) return noKeyHere();
  const text = boundText(session, record);
  if (CHECKED.get(text) !== record.b) {
    const expected = Buffer.from(macOf(key, text));
    const given = Buffer.from(record.b);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    rememberAtMost(CHECKED, text, record.b, MAX_CHECKED);
  }
  // A record is written whole, never changed in place (see `writeLoginRisk`): frozen, it stays what was checked.
  if (Object.isFrozen(record) || freezeRecord(record)) {
    AUTHENTIC.set(record, { sid: sessionIdOf(session), user: userText(session) });
  }
  return true;
}

/** Records found authentic, by the record object, with the session id and user they were checked in. */
const AUTHENTIC = new WeakMap<object, { sid: string; user: string }>();

/** Freezes a checked record and what it holds; false when a part could not be frozen (a Proxy that refuses). */
function freezeRecord(record: StoredLoginRecord): boolean {
  try {
    Object.freeze(record.verified);
    if (record.risk) {
      if ('signals' in record.risk && record.risk.signals) Object.freeze(record.risk.signals);
      Object.freeze(record.risk);
    }
    Object.freeze(record);
    return Object.isFrozen(record);
  } catch {
    return false;
  }
}

let saidNoKey = false;

/**
 * A record names a key this process lacks. When the process has none at all, its guards run
 * without a strategy (an API process beside the one that signs in): the operator hears it once.
 */
function noKeyHere(): false {
  if (!saidNoKey && latestRecordKey() === undefined) {
    saidNoKey = true;
    process.emitWarning(
      'passport-otpless: a login record was read in a process where no MagicLinkStrategy was built, so it ' +
        'cannot be checked and counts as none. Build the strategy (with the same storeSecret or client secret) ' +
        'in every process whose routes use the guards.',
      { type: 'PassportOtplessWarning', code: 'OTPLESS_NO_RECORD_KEY' },
    );
  }
  return false;
}

/** Texts whose digest was checked, with that digest: only what passed, oldest first out. */
const CHECKED = new Map<string, string>();
const MAX_CHECKED = 1_000;

/**
 * What `b` covers, as one unambiguous text: the key id, the session's id, the serialized user
 * and every field of the record. Signals a cookie session keeps sealed are covered as sealed.
 */
function boundText(session: SessionLike, record: StoredLoginRecord): string {
  return JSON.stringify([
    record.k,
    sessionIdOf(session),
    userText(session),
    record.id,
    record.verified,
    record.handoff === true,
    record.risk ?? null,
    record.token ?? null,
    // Only when set: a record of a login by link or token keeps the text it always had.
    ...(record.via === undefined ? [] : [record.via]),
  ]);
}

function macOf(key: RecordKey, text: string): string {
  return createHmac('sha256', key.key).update(`login record\0${text}`).digest().subarray(0, 16).toString('base64url');
}

function noKeyError(): Error {
  return new Error(
    'passport-otpless: no MagicLinkStrategy was built in this process, so no key to bind a login record with',
  );
}

/**
 * The session's user as JSON: Passport's serialized user. Serialized users are JSON in every
 * session store. A session without a user has a text too (`undefined`), which no record
 * written at a login was bound to.
 */
function userText(session: SessionLike): string {
  const passport = session.passport;
  // Passport keeps `{ user }` under `passport`; @fastify/passport keeps the serialized user itself.
  const user = Object.hasOwn(Object(passport), 'user') ? (passport as { user: unknown }).user : passport;
  // Serializing on every guarded request would cost more than the decision: an object user
  // seen before is compared member by member with what it held then (see `sameMembers`).
  // A WeakMap answers `undefined` for a primitive (a string user), null or undefined.
  const seen = SEEN_USERS.get(user as object);
  // Stryker disable next-line ConditionalExpression: the memo; see docs/testing.md
  if (seen !== undefined && sameMembers(user as object, seen)) return seen.text;
  const text = String(JSON.stringify(user));
  const members = flatMembers(user);
  // Stryker disable next-line ConditionalExpression: the memo; see docs/testing.md
  if (members) SEEN_USERS.set(user as object, { ...members, text });
  return text;
}

/** An object user's members when it was bound: its keys and primitive values, in order. */
interface SeenUser {
  keys: string[];
  values: unknown[];
  text: string;
}

/** By the user object itself (one session object lives for one request, or in a test, many). */
const SEEN_USERS = new WeakMap<object, SeenUser>();

// Stryker disable all: which users the memo takes; refusing more only costs speed, and taking
// more (a nested object, a lent member) is what test/session/loginRecord.test.ts refuses.
/**
 * The members of a plain object with no nested object, whose JSON is therefore given by its own
 * keys and the values compared by identity here; `undefined` for anything else (a primitive, an
 * object of another prototype, which is serialized at every read: a session's user is a plain
 * object). A prototype of its own could lend enumerable members that `for...in` lists and JSON
 * does not. A `toJSON` is checked at every comparison instead (`sameMembers`), since a new
 * prototype can bring one at any time. (A bigint member never gets here: JSON.stringify throws.)
 */
function flatMembers(user: unknown): Omit<SeenUser, 'text'> | undefined {
  if (typeof user !== 'object' || user === null || Object.getPrototypeOf(user) !== Object.prototype) return undefined;
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const key in user as object) {
    const value: unknown = (user as Record<string, unknown>)[key];
    if (typeof value === 'object') return undefined; // nested, or null (not worth telling apart)
    keys.push(key);
    values.push(value);
  }
  return { keys, values };
}
// Stryker restore all

/**
 * True when `user` still has exactly the keys (same order) and values it had when bound, so its
 * JSON, and the binding, are unchanged; any change (a member added, removed, reordered or
 * changed, even NaN for NaN) reads as not the same, and the user is serialized again. A new
 * prototype changes the JSON only by lending enumerable members (listed by `for...in`, so
 * counted here) or a `toJSON` (checked last).
 */
function sameMembers(user: object, seen: SeenUser): boolean {
  const { keys, values } = seen;
  let i = 0;
  for (const key in user) {
    if (keys[i] !== key || values[i] !== (user as Record<string, unknown>)[key]) return false;
    i++;
  }
  return i === keys.length && !('toJSON' in user);
}

/** Sealed signals open only in the record of the same login. */
function sealContext(id: string, at: number): string {
  return `login record\0${id}\0${at}`;
}

/** A server-side session keeps the signals as they are; a cookie session keeps them sealed. */
function storedRisk(req: HttpRequest, id: string, risk: LoginRiskRecord): LoginRiskRecord | SealedRiskRecord {
  if (req.sessionStore) return risk;
  return { action: risk.action, at: risk.at, s: sealValue(req, risk.signals, sealContext(id, risk.at)) };
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
  const record: UnboundLoginRecord = {
    v: 2,
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
 * wrapping `req.logIn` for this one request writes the record into the new session, bound to
 * the user Passport just put there. The same moment puts back a safe `returnTo` (also dropped
 * by the regeneration) for `successReturnToOrRedirect`, and removes an unsafe one: only paths
 * on this site are kept.
 *
 * Throws an `OtplessSetupError` (`MISSING_SESSION_SECRET`) before anything is logged in when a
 * cookie session has signals to keep and no secret to seal them with.
 *
 * `key`: the strategy's record key (`StoreSecrets.recordKey`); without it, the key of the
 * strategy built last in this process, which the guards accept as well.
 */
export function writeRecordOnLogin(req: HttpRequest, record: UnboundLoginRecord, key?: RecordKey): void {
  // Passport's authenticate() (and @fastify/passport) give every request `logIn` and `login`,
  // the same function, before a strategy runs.
  const target = req as unknown as { logIn: LogIn; login: LogIn };
  const original = target.logIn;
  const returnTo = sessionOf(req)?.returnTo;
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
  setSessionValue(session, LOGIN_RECORD_KEY, bound(session, stored, key));
  if (isSafeLocalPath(returnTo)) setSessionValue(session, 'returnTo', returnTo);
  else removeSessionValue(session, 'returnTo');
}

/**
 * `req.logIn` that runs `write` once the original has logged the user in. Returned by a function
 * rather than kept in a named constant: the package is built with esbuild's keepNames, which
 * names such a closure with a `defineProperty` each time it is made, on every login.
 */
function wrapLogIn(original: LogIn, write: (opts: { session?: boolean }) => void): LogIn {
  return function (this: unknown, user, options, done) {
    const callback = typeof options === 'function' ? (options as (err?: unknown) => void) : done;
    const opts = typeof options === 'function' || !options ? {} : (options as { session?: boolean });
    const result = original.call(this, user, opts, (err?: unknown) => {
      if (!err) write(opts);
      callback?.(err);
    });
    // @fastify/passport's logIn takes no callback and returns a promise: written once it resolves.
    if (result instanceof Promise) return result.then(() => write(opts));
    return result;
  };
}
