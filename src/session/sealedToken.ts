import { deriveKey, openJson, sealJson, UNOPENED } from '../crypto.js';
import { sessionIdOf } from './session.js';
import type { SessionLike } from './session.js';
import type { RecordKey } from './recordKeys.js';

/**
 * The token a login record keeps with a server-side session (the login's token, or the
 * service's session token), so the guards can ask the service about it (`requireLowRisk`'s
 * refetch, `requireServiceSession`). A reader of the session store must not find it: it is
 * sealed (AES-256-GCM) under a key derived from the record's key (from the store secret, which
 * the store never holds), bound to the session's id and the record's user id, as the flows and
 * the pending sends are. Copied into another session, it does not open.
 */

const SEAL_KEYS = new WeakMap<RecordKey, Buffer>();

function sealKeyOf(key: RecordKey): Buffer {
  let sealKey = SEAL_KEYS.get(key);
  if (!sealKey) {
    sealKey = deriveKey(key.key, 'login record token v1');
    SEAL_KEYS.set(key, sealKey);
  }
  return sealKey;
}

function contextOf(session: SessionLike, recordId: string): string {
  return JSON.stringify(['login record token', sessionIdOf(session), recordId]);
}

/** The record as the session keeps it: its `token`, when it has one, sealed for this session. */
export function withSealedToken<R extends { id: string; token?: string }>(
  session: SessionLike,
  record: R,
  key: RecordKey,
): R {
  // Only a token (a string) is sealed: anything else stays as it is, for the shape check to refuse.
  if (typeof record.token !== 'string') return record;
  // Object.assign: a spread followed by a member makes a new hidden class per call on Node 20 (recordBinding.ts).
  return Object.assign({}, record, { token: sealJson(sealKeyOf(key), record.token, contextOf(session, record.id)) });
}

/**
 * The token sealed in a stored record, or `undefined` when it does not open here (another
 * session's, altered, or written in clear by an earlier version: such a login's guards then
 * ask for a new login or use their stale rule, never a token from the store as it is).
 */
export function openSealedToken(
  session: SessionLike,
  recordId: string,
  sealed: unknown,
  key: RecordKey,
): string | undefined {
  const token = openJson(sealKeyOf(key), sealed, contextOf(session, recordId));
  return token === UNOPENED || typeof token !== 'string' ? undefined : token;
}
