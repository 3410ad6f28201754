import { latestRecordKey, registerRecordKey } from '../../src/session/recordKeys.js';
// The pending sends of a session: each serves one login, taken out before it is compared, and a
// callback that binds to nothing leaves the others alone.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  allPending,
  findPendingByFlow,
  hasPendingFlow,
  hashDestination,
  hashRequestId,
  livePending,
  otherPendingHas,
  PENDING_KEY,
  rememberPending,
  takeFoundPending,
  takePendingByFlow,
  takePendingByRequestId,
  MAX_PENDING,
  PENDING_VERSION,
} from '../../src/session/pending.js';
import type { SessionLike } from '../../src/session/session.js';
import { StoreSecrets } from '../../src/flow/seal.js';

// A strategy's secrets, built as a strategy builds them: what the sends are sealed under.
new StoreSecrets('a-test-store-secret-of-32-characters!');

const send = (flowId: string, requestId: string, expiresAt = 10_000) => ({
  flowId,
  requestIds: [{ type: 'EMAIL' as const, value: requestId }],
  destinations: ['Ada@Example.com'],
  expiresAt,
});

describe('pending sends', () => {
  it('keeps hashes only: no request id or destination in clear', () => {
    const session: SessionLike = {};
    rememberPending(session, send('flow-a', 'request-a'), 0);
    const text = JSON.stringify(session);
    expect(text).not.toContain('request-a');
    expect(text.toLowerCase()).not.toContain('ada@example.com');
    expect(allPending(session)[0]).toEqual({
      version: PENDING_VERSION,
      flowId: 'flow-a',
      requestIdHashes: [hashRequestId('request-a')],
      // Keyed under the record key the send was sealed with.
      destinationHashes: [hashDestination('ada@example.com', latestRecordKey()!.key)],
      expiresAt: 10_000,
    });
  });

  it('takes the send by its flow id once, and leaves the others', () => {
    const session: SessionLike = {};
    rememberPending(session, send('flow-a', 'request-a'), 0);
    rememberPending(session, send('flow-b', 'request-b'), 0);
    expect(takePendingByFlow(session, 'flow-a', 1)?.flowId).toBe('flow-a');
    expect(takePendingByFlow(session, 'flow-a', 1)).toBeUndefined();
    expect(livePending(session, 1).map((p) => p.flowId)).toEqual(['flow-b']);
  });

  it('finds the send by its flow id in one read and takes it with the others left as they were', () => {
    const session: SessionLike = {};
    rememberPending(session, send('flow-a', 'request-a'), 0);
    rememberPending(session, send('flow-b', 'request-b'), 0);
    rememberPending(session, send('flow-c', 'request-c', 5), 0);
    const [, storedB] = session[PENDING_KEY] as unknown[];
    expect(findPendingByFlow(session, 'flow-x', 6)).toBeUndefined();
    const found = findPendingByFlow(session, 'flow-a', 6);
    expect(found?.pending.flowId).toBe('flow-a');
    // Finding alone writes nothing.
    expect((session[PENDING_KEY] as unknown[]).length).toBe(3);
    expect(takeFoundPending(session, found!).requestIdHashes).toEqual([hashRequestId('request-a')]);
    // The other live send stays as stored; the expired one goes with the take.
    expect(session[PENDING_KEY]).toEqual([storedB]);
    expect(findPendingByFlow(session, 'flow-a', 6)).toBeUndefined();
    const last = findPendingByFlow(session, 'flow-b', 6);
    takeFoundPending(session, last!);
    expect(session).toEqual({});
  });

  it('finds no send copied into another session', () => {
    const session: SessionLike = {};
    Object.defineProperty(session, 'id', { value: 'session-a' });
    rememberPending(session, send('flow-a', 'request-a'), 0);
    const copied: SessionLike = { [PENDING_KEY]: session[PENDING_KEY] };
    Object.defineProperty(copied, 'id', { value: 'session-b' });
    expect(findPendingByFlow(copied, 'flow-a', 1)).toBeUndefined();
    expect(findPendingByFlow(undefined, 'flow-a', 1)).toBeUndefined();
  });

  it('a flow id of no send here takes nothing: the other sends stay', () => {
    const session: SessionLike = {};
    rememberPending(session, send('flow-a', 'request-a'), 0);
    expect(takePendingByFlow(session, 'flow-attacker', 1)).toBeUndefined();
    expect(takePendingByRequestId(session, 'request-attacker', 1)).toBeUndefined();
    expect(livePending(session, 1)).toHaveLength(1);
  });

  it('takes by request id (the fallback), and tells another send of this session apart', () => {
    const session: SessionLike = {};
    rememberPending(session, send('flow-a', 'request-a'), 0);
    rememberPending(session, send('flow-b', 'request-b'), 0);
    expect(otherPendingHas(session, 'request-b', 1)).toBe(true);
    expect(takePendingByRequestId(session, 'request-b', 1)?.flowId).toBe('flow-b');
    expect(otherPendingHas(session, 'request-b', 1)).toBe(false);
    expect(session[PENDING_KEY]).toHaveLength(1);
  });

  it('drops expired sends, keeps at most MAX_PENDING, and tolerates anything stored', () => {
    const session: SessionLike = {};
    for (let i = 0; i < MAX_PENDING + 2; i++) rememberPending(session, send(`flow-${i}`, `r-${i}`), 0);
    expect(livePending(session, 1).map((p) => p.flowId)).toEqual(['flow-2', 'flow-3', 'flow-4', 'flow-5', 'flow-6']);
    expect(livePending(session, 10_000)).toEqual([]);
    expect(takePendingByFlow(session, 'flow-6', 10_000)).toBeUndefined();
    session[PENDING_KEY] = [null, 'x', { h: 'not-an-array', exp: 1 }, { f: 3, h: [], exp: 99 }];
    expect(allPending(session)).toEqual([]);
  });

  it('treats a record of an older shape as absent, never misreads it', () => {
    const session: SessionLike = {};
    // What 0.1 wrote: one-letter fields and no version. The link of that send asks for a new one.
    session[PENDING_KEY] = [{ f: 'flow-old', h: [hashRequestId('request-old')], t: ['EMAIL'], d: [], exp: 10_000 }];
    expect(allPending(session)).toEqual([]);
    expect(takePendingByFlow(session, 'flow-old', 1)).toBeUndefined();
    expect(otherPendingHas(session, 'request-old', 1)).toBe(false);
    // A record of another version, even with today's field names, is not read either.
    const current = { flowId: 'flow-x', requestIdHashes: [], destinationHashes: [], expiresAt: 10_000 };
    session[PENDING_KEY] = [{ ...current, version: PENDING_VERSION + 1 }, { ...current }];
    expect(allPending(session)).toEqual([]);
    // A new send next to old records keeps only what it can read.
    rememberPending(session, send('flow-new', 'request-new'), 0);
    expect(allPending(session).map((p) => p.flowId)).toEqual(['flow-new']);
  });

  it('a record of this version with a field of another type is absent too', () => {
    const session: SessionLike = {};
    const current = { version: PENDING_VERSION, flowId: 'flow-x', requestIdHashes: [], destinationHashes: [] };
    session[PENDING_KEY] = [
      { ...current, expiresAt: '10000' },
      { ...current, flowId: 7, expiresAt: 10_000 },
    ];
    expect(allPending(session)).toEqual([]);
  });

  it('a callback that takes nothing writes nothing: an expired send stays as it was', () => {
    const session: SessionLike = {};
    rememberPending(session, send('flow-a', 'request-a', 5), 0);
    const before = JSON.stringify(session);
    expect(takePendingByFlow(session, 'flow-other', 10)).toBeUndefined();
    expect(JSON.stringify(session)).toBe(before);
  });

  it('taking the last send removes the member from the session, no empty list is left', () => {
    const session: SessionLike = {};
    rememberPending(session, send('flow-a', 'request-a'), 0);
    expect(takePendingByFlow(session, 'flow-a', 1)?.flowId).toBe('flow-a');
    expect(session).toEqual({});
  });

  it('names its flow only sealed, and a send copied into another session or altered reads as absent', () => {
    const session: SessionLike = {};
    Object.defineProperty(session, 'id', { value: 'session-a' });
    rememberPending(session, send('flow-a', 'request-a'), 0);
    expect(JSON.stringify(session)).not.toContain('flow-a');
    expect(hasPendingFlow(session, 'flow-a', 1)).toBe(true);
    expect(hasPendingFlow(session, 'flow-b', 1)).toBe(false);

    const copied: SessionLike = { [PENDING_KEY]: session[PENDING_KEY] };
    Object.defineProperty(copied, 'id', { value: 'session-b' });
    expect(hasPendingFlow(copied, 'flow-a', 1)).toBe(false);
    expect(takePendingByFlow(copied, 'flow-a', 1)).toBeUndefined();

    const [entry] = session[PENDING_KEY] as Array<Record<string, unknown>>;
    const extended: SessionLike = { [PENDING_KEY]: [{ ...entry, expiresAt: 99_999 }] };
    Object.defineProperty(extended, 'id', { value: 'session-a' });
    expect(allPending(extended)).toEqual([]);
  });
});

describe('destination hashes under a key', () => {
  // The record key the send is sealed with keys its destination hashes too.
  const recordKey = registerRecordKey('pending-destination-test-secret-0123456789');
  const key = recordKey.key;
  const other = Buffer.alloc(32, 8);
  const unkeyed = (value: string) =>
    createHash('sha256').update(`destination\0${value.toLowerCase()}`).digest('base64url').slice(0, 22);

  it('with a key, a session holds no hash a reader can recompute from a guessed number', () => {
    const session: SessionLike = {};
    rememberPending(session, { ...send('f-keyed', 'r-keyed'), destinations: ['+14155550123'] }, 0, recordKey);
    const [stored] = allPending(session);
    expect(stored!.destinationHashes).toEqual([hashDestination('+14155550123', key)]);
    expect(stored!.destinationHashes[0]).not.toBe(unkeyed('+14155550123'));
    expect(stored!.destinationHashes[0]).not.toBe(hashDestination('+14155550123', other));
    // Compared in lower case, as before, and 22 characters, as before.
    expect(hashDestination('Ada@Example.com', key)).toBe(hashDestination('ada@example.com', key));
    expect(hashDestination('ada@example.com', key)).toMatch(/^[\w-]{22}$/);
  });

  it('without a key, the hash is the one earlier versions wrote', () => {
    expect(hashDestination('Ada@Example.com')).toBe(unkeyed('ada@example.com'));
  });
});
