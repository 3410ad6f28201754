// The pending sends of a session: each serves one login, taken out before it is compared, and a
// callback that binds to nothing leaves the others alone.
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import express from 'express';
import passportPkg from 'passport';
import supertest from 'supertest';
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
import { latestRecordKey, registerRecordKey } from '../../src/session/recordKeys.js';
import type { SessionLike } from '../../src/session/session.js';
import { StoreSecrets } from '../../src/flow/seal.js';
import { clickLink, CLIENT, type Harness, lastLinkTo } from '../helpers/harness.js';
import { sessionCookie } from '../helpers/sessionCookie.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

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

// A victim who has a pending link of their own and opens an attacker's callback URL is never
// signed in as the attacker, and keeps their own pending link.

const pool = useSharedEmulator();

async function attackerCallback(h: Harness, email: string): Promise<string> {
  const attacker = h.browser();
  await attacker.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  return clickLink(lastLinkTo(h.emulator, email));
}

describe("a victim with a pending link of their own opens the attacker's callback", () => {
  it.each(['handoff', 'refuse'] as const)('%s: not signed in, and their own link still works', async (crossDevice) => {
    const h = await pool.harness({ strategy: { crossDevice } });
    const victim = h.browser();
    await victim.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'victim@example.com' });
    const own = await clickLink(lastLinkTo(h.emulator, 'victim@example.com'));
    const forced = await attackerCallback(h, `attacker-${crossDevice}@evil.test`);
    const res = await victim.get(forced);
    expect(res.status).toBe(crossDevice === 'handoff' ? 200 : 403);
    expect((await victim.get('/me')).status).toBe(401);
    expect((await victim.get(own)).status).toBe(302);
    expect((await victim.get('/me')).body.user.email).toBe('victim@example.com');
  });

  it('the query dropped by the service: WRONG_BROWSER after verifying, and their own send stays', async () => {
    const h = await pool.harness();
    const emulator = pool.emulator();
    emulator.setQuirks({ stripRedirectQuery: true });
    try {
      const victim = h.browser();
      await victim.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'victim2@example.com' });
      const own = await clickLink(lastLinkTo(h.emulator, 'victim2@example.com'));
      const forced = await attackerCallback(h, 'attacker2@evil.test');
      expect((await victim.get(forced)).status).toBe(403);
      expect((await victim.get('/me')).status).toBe(401);
      // The forced code took nothing from the victim's session: their own link signs them in.
      expect((await victim.get(own)).status).toBe(302);
      expect((await victim.get('/me')).body.user.email).toBe('victim2@example.com');
    } finally {
      emulator.setQuirks({});
    }
  });

  it('a refused login (verify says no) spends the send: the same link cannot be tried again', async () => {
    const h = await pool.harness({
      verify: async () => null,
      routes: (app) => app.get('/pending', (req, res) => res.json({ count: allPending(req.session as never).length })),
    });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'refused@example.com' });
    const link = await clickLink(lastLinkTo(h.emulator, 'refused@example.com'));
    expect((await browser.get('/pending')).body.count).toBe(1);
    expect((await browser.get(link)).status).toBe(401);
    // The send was taken before the comparison: the session holds no send any more.
    expect((await browser.get('/pending')).body.count).toBe(0);
  });
});

// The session's pending sends are a
// stored format: a session written by one instance or release is read by the next (a shared
// session store, or the cookie of cookie-session), so the member's name and the hashes in it are
// pinned here from first principles. And a callback on a route without any session, which
// `crossDevice: 'accept'` allows, reads the (absent) pending sends without failing.

const { harness } = pool;

/** The format's hash: SHA-256, base64url, the first 22 characters (132 bits). */
const pinnedHash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
/**
 * A destination's hash: HMAC-SHA256 of `pending destination\0<value>` under the record key (HKDF
 * of the client secret, label 'session records v1'), the first 16 bytes in base64url.
 */
const pinnedDestination = (text: string) => {
  const key = Buffer.from(hkdfSync('sha256', CLIENT.clientSecret, 'passport-otpless', 'session records v1', 32));
  return createHmac('sha256', key)
    .update(`pending destination\0${text}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
};

describe('the pending sends in the session keep their stored format', () => {
  it('one send: `otplessPending` holds its flow, the hashed request id and the hashed destination in lower case', async () => {
    const h = await harness();
    const sent = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'Pending.Pin@Example.com' });
    expect(sent.status).toBe(200);
    const delivered = h.emulator.outbox().at(-1);
    const flowId = new URL(delivered?.redirectUri ?? 'http://x').searchParams.get('flow');
    const cookie = sessionCookie<{ otplessPending: Array<Record<string, unknown>> }>(sent);
    expect(cookie).toEqual({
      otplessPending: [
        {
          version: 3,
          // The record key of the harness's client secret, and the flow id sealed under it.
          k: 'AtOu9A5yVOL',
          f: expect.stringMatching(/^[\w-]{16}\.[\w-]{22}\.[\w-]+$/) as string,
          requestIdHashes: [pinnedHash(delivered?.requestId ?? '')],
          destinationHashes: [pinnedDestination('pending.pin@example.com')],
          expiresAt: expect.any(Number) as number,
        },
      ],
    });
    expect(flowId).toMatch(/^[\w-]{22}$/);
    expect(JSON.stringify(cookie)).not.toContain(flowId);
  });
});

describe('a callback on a route with no session at all (crossDevice: accept)', () => {
  it('signs in with a link sent elsewhere, reading no pending send, never a 500', async () => {
    const h = await harness({ strategy: { crossDevice: 'accept' } });
    const sent = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'no-session@example.com' });
    expect(sent.status).toBe(200);
    const callback = await clickLink(lastLinkTo(h.emulator, 'no-session@example.com'));
    expect(new URL(callback, 'http://x').searchParams.get('flow')).toBeTruthy();

    // The same strategy on an app with no session middleware, answering the callback statelessly.
    const passport = new passportPkg.Passport();
    passport.use(h.strategy);
    const app = express();
    app.get('/auth/callback', passport.authenticate(h.strategy.name, { session: false }), (req, res) => {
      res.json({ user: req.user });
    });
    app.use((err: { message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ error: err.message });
    });
    const res = await supertest(app).get(callback);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { email: 'no-session@example.com' } });
  });
});
