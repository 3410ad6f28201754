import { timingSafeEqual } from 'node:crypto';
import { mac128 } from '../crypto.js';
import { warnOnce } from '../errors/warnings.js';
import { sessionIdOf, sessionValue } from './session.js';
import type { SessionLike } from './session.js';
import { latestRecordKey, recordKeyById } from './recordKeys.js';
import type { RecordKey } from './recordKeys.js';
import type { StoredLoginRecord, UnboundStoredRecord } from './recordFormat.js';

/**
 * The record with its key id and its keyed digest over the record, user and session (see
 * `LoginRecord.b`); a `k` and `b` it had are replaced.
 */
export function bound(session: SessionLike, record: UnboundStoredRecord, key: RecordKey): StoredLoginRecord {
  // Object.assign, not `{ ...record, k, b }`: on Node 20 a spread followed by more members makes
  // a new hidden class on every call (about 1.5 µs, and every reader of the record goes megamorphic).
  const stored: StoredLoginRecord = Object.assign({}, record, { k: key.id, b: '' });
  stored.b = macOf(key, boundText(session, stored, userText(session)));
  return stored;
}

/**
 * True when the record's `b` is the keyed digest of what it holds, in this session, for this
 * user (`user`: its JSON, see `userText`), under a key of this process. `record` has the stored
 * shape (`b` a string: see checkedLogins.ts); a `b` of another length is simply not it.
 */
export function isBound(session: SessionLike, record: StoredLoginRecord, user: string): boolean {
  const key = recordKeyById(record.k);
  if (!key) return noKeyHere();
  const expected = Buffer.from(macOf(key, boundText(session, record, user)));
  const given = Buffer.from(record.b);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The session's user as Passport serialized it: under `passport.user` (Passport), or the value
 * of `passport` itself (@fastify/passport).
 */
export function sessionUser(session: SessionLike): unknown {
  const passport = sessionValue(session, 'passport');
  return Object.hasOwn(Object(passport), 'user') ? (passport as { user: unknown }).user : passport;
}

/**
 * The session's user as JSON. Serialized users are JSON in every session store. A session
 * without a user has a text too (`undefined`), which no record written at a login was bound to.
 */
export function userText(session: SessionLike): string {
  return String(JSON.stringify(sessionUser(session)));
}

/**
 * What `b` covers, as one unambiguous text: the key id, the session's id, the serialized user
 * and every field of the record. Signals a cookie session keeps sealed are covered as sealed.
 */
function boundText(session: SessionLike, record: StoredLoginRecord, user: string): string {
  return JSON.stringify([
    record.k,
    sessionIdOf(session),
    user,
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
  return mac128(key.key, `login record\0${text}`);
}

/** Thrown when a record is to be written in a process that has no key to bind it with. */
export function noKeyError(): Error {
  return new Error(
    'passport-otpless: no MagicLinkStrategy was built in this process, so no key to bind a login record with',
  );
}

/**
 * A record names a key this process lacks. When the process has none at all, its guards run
 * without a strategy (an API process beside the one that signs in): the operator hears it once.
 */
function noKeyHere(): false {
  if (latestRecordKey() === undefined) warnOnce('OTPLESS_NO_RECORD_KEY');
  return false;
}
