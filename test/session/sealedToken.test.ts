import { describe, expect, it } from 'vitest';
import { registerRecordKey } from '../../src/session/recordKeys.js';
import { openSealedToken, withSealedToken } from '../../src/session/sealedToken.js';
import type { SessionLike } from '../../src/session/session.js';

/** A session as express-session makes one: its id defined by the library, not enumerable. */
function sessionWithId(id: string, data: Record<string, unknown> = {}): SessionLike {
  const session: SessionLike = { ...data };
  Object.defineProperty(session, 'id', { value: id });
  return session;
}

const key = registerRecordKey('sealed-token-test-secret');
const other = registerRecordKey('sealed-token-other-secret');

describe('the token of a login record, sealed for its session', () => {
  it('is not in the stored record, and opens in its session for its record only', () => {
    const session = sessionWithId('sid-1');
    const stored = withSealedToken(session, { id: 'user-1', token: 'the-token-value' }, key);
    expect(JSON.stringify(stored)).not.toContain('the-token-value');
    expect(openSealedToken(session, 'user-1', stored.token, key)).toBe('the-token-value');
    // Another session (a copy into the writer's own), another record, another key: nothing.
    expect(openSealedToken(sessionWithId('sid-2'), 'user-1', stored.token, key)).toBeUndefined();
    expect(openSealedToken(session, 'user-2', stored.token, key)).toBeUndefined();
    expect(openSealedToken(session, 'user-1', stored.token, other)).toBeUndefined();
    // A stored `id` field is data, not the library's id: it changes nothing.
    expect(
      openSealedToken(sessionWithId('sid-2', { sessionId: 'sid-1' }), 'user-1', stored.token, key),
    ).toBeUndefined();
  });

  it('leaves a record without a token as it is, and reads a token kept in clear (an earlier version) as none', () => {
    const session = sessionWithId('sid-1');
    const record = { id: 'user-1' };
    expect(withSealedToken(session, record, key)).toBe(record);
    expect(openSealedToken(session, 'user-1', 'the-token-value', key)).toBeUndefined();
    expect(openSealedToken(session, 'user-1', 'a.b.c', key)).toBeUndefined();
    expect(openSealedToken(session, 'user-1', undefined, key)).toBeUndefined();
  });
});
