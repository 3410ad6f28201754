import { createHmac, timingSafeEqual } from 'node:crypto';
import { sessionIdOf } from './session.js';
import type { SessionLike } from './session.js';
import { latestRecordKey, recordKeyById } from './recordKeys.js';
import type { RecordKey } from './recordKeys.js';
import type { StoredLoginRecord, UnboundStoredRecord } from './recordFormat.js';

/**
 * The record with its key id and its keyed digest over the record, user and session (see
 * `LoginRecord.b`); a `k` and `b` it had are replaced.
 */
export function bound(session: SessionLike, record: UnboundStoredRecord, key: RecordKey): StoredLoginRecord {
  const stored: StoredLoginRecord = { ...record, k: key.id, b: '' };
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
  const passport = session.passport;
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
  return createHmac('sha256', key.key).update(`login record\0${text}`).digest().subarray(0, 16).toString('base64url');
}

/** Thrown when a record is to be written in a process that has no key to bind it with. */
export function noKeyError(): Error {
  return new Error(
    'passport-otpless: no MagicLinkStrategy was built in this process, so no key to bind a login record with',
  );
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
