import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { clickLink, CLIENT, type Harness, type HarnessOptions, lastLinkTo, startHarness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { askForLink, expectExpired, WatchedFlowStore } from '../helpers/watchedFlowStore.js';
import { StoreSecrets } from '../../src/flow/seal.js';
import { MemoryFlowStore } from '../../src/index.js';
import { Handoff } from '../../src/flow/handoff.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';

// Two browsers per test, as a person has them: the laptop that asks, the phone that opens the link.
const LAPTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const pool = useSharedEmulator();
const app = (options: HarnessOptions = {}) => pool.harness(options);

/** The laptop asks for a link to `email`; returns the number it shows and the phone's callback path. */
async function askOnLaptop(h: Harness, email: string) {
  const laptop = h.browser().set('user-agent', LAPTOP_UA);
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  return { laptop, match: sent.body.match as string, callback };
}

function phoneOf(h: Harness) {
  return h.browser().set('user-agent', PHONE_UA);
}

describe('cross-device handoff (the default)', () => {
  it('the phone approves with the number, and the laptop signs in', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'handoff@example.com');
    expect(match).toMatch(/^[1-9]\d$/);
    expect((await laptop.get('/auth/status')).body).toEqual({
      status: 'pending',
      match,
      expiresAt: expect.any(String),
    });

    const phone = phoneOf(h);
    const page = await phone.get(callback);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approve sign-in on your computer?');
    expect(page.text).toContain('Chrome on Windows');
    // The page holds neither the number nor the code: the person brings the number.
    expect(page.text).not.toContain(`value="${match}"`);
    expect(page.text).not.toContain(new URL(callback, h.baseUrl).searchParams.get('code'));
    expect(page.headers['cache-control']).toBe('no-store');

    const approved = await phone.post(callback).type('form').send({ match });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('You are signed in on your computer');
    // The phone itself is not signed in.
    expect((await phone.get('/me')).status).toBe(401);

    expect((await laptop.get('/auth/status')).body.status).toBe('approved');
    const finished = await laptop.get('/auth/callback');
    expect(finished.status).toBe(302);
    expect(finished.headers.location).toBe('/me');
    const me = await laptop.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('handoff@example.com');
    expect(me.body.record).toMatchObject({ handoff: true, verified: ['EMAIL'] });
    expect((await laptop.get('/auth/status')).body).toEqual({ status: 'none' });
  });

  it('hands the profile both devices, and the signals of the approving one', async () => {
    let seen: import('../../src/index.js').MagicLinkProfile | undefined;
    const h = await app({
      strategy: { enrich: ['secureInfo'] },
      verify: async (profile) => {
        seen = profile;
        return { id: profile.id };
      },
    });
    const { laptop, match, callback } = await askOnLaptop(h, 'devices@example.com');
    await phoneOf(h).post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(302);
    expect(seen?.handoff).toEqual({
      approvedBy: { browser: 'Safari', os: 'iOS' },
      approvedAt: expect.any(Date),
      askedBy: { browser: 'Chrome', os: 'Windows' },
    });
    expect(seen?.risk?.action).toBe('allow');
  });

  it('a wrong number denies the flow for good, and the laptop is told', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'wrong@example.com');
    const phone = phoneOf(h);
    const wrong = String(((Number(match) - 10 + 1) % 90) + 10);
    const denied = await phone.post(callback).type('form').send({ match: wrong });
    expect(denied.status).toBe(403);
    expect(denied.text).toContain('The number did not match');
    expect((await laptop.get('/auth/status')).body).toMatchObject({ status: 'denied' });
    // The right number afterwards changes nothing.
    const late = await phone.post(callback).type('form').send({ match });
    expect(late.status).toBe(410);
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(403);
    expect((await laptop.get('/me')).status).toBe(401);
  });

  it('"This wasn\'t me" denies the flow', async () => {
    const h = await app();
    const { laptop, callback } = await askOnLaptop(h, 'notme@example.com');
    const res = await phoneOf(h).post(callback).type('form').send({ decision: 'deny' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Nobody was signed in');
    expect((await laptop.get('/auth/status')).body.status).toBe('denied');
    expect((await laptop.get('/auth/callback')).status).toBe(403);
  });

  it('the laptop waiting on the callback before approval gets 409, then signs in after it', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'early@example.com');
    expect((await laptop.get('/auth/callback')).status).toBe(409);
    await phoneOf(h).post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it('an expired flow: the phone is refused, the laptop reads expired', async () => {
    const h = await app({ strategy: { expiry: 30 } });
    const { laptop, callback } = await askOnLaptop(h, 'expired@example.com');
    const realNow = Date.now;
    Date.now = () => realNow() + 31_000;
    try {
      expect((await laptop.get('/auth/status')).body.status).toBe('expired');
      expect((await phoneOf(h).get(callback)).status).toBe(401);
    } finally {
      Date.now = realNow;
    }
  });

  it('a replayed link after approval spends nothing and signs nobody in', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'replay@example.com');
    const phone = phoneOf(h);
    await phone.post(callback).type('form').send({ match });
    expect((await phone.post(callback).type('form').send({ match })).status).toBe(410);
    expect((await phoneOf(h).get(callback)).status).toBe(401);
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it('two laptop tabs finishing at once: one login, the other gets nothing', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'tabs@example.com');
    await phoneOf(h).post(callback).type('form').send({ match });
    const [a, b] = await Promise.all([laptop.get('/auth/callback'), laptop.get('/auth/callback')]);
    expect([a.status, b.status].sort()).toEqual([302, 401]);
  });

  it('a laptop that logged out meanwhile is not signed in by the approval', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'away@example.com');
    // Signing out regenerates the session: the pending send is gone with it.
    await laptop.post('/logout');
    await phoneOf(h).post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(400);
    expect((await laptop.get('/me')).status).toBe(401);
  });

  it('the asking browser opening the link itself signs in at once, with no approval page', async () => {
    const h = await app();
    const { laptop, callback } = await askOnLaptop(h, 'same@example.com');
    const res = await laptop.get(callback);
    expect(res.status).toBe(302);
    expect((await laptop.get('/me')).body.record.handoff).toBeUndefined();
  });

  it('confirm mode: the same browser sees the confirm page, the phone the approval page', async () => {
    const h = await app({ strategy: { confirm: true } });
    const { laptop, match, callback } = await askOnLaptop(h, 'confirm@example.com');
    const phone = phoneOf(h);
    expect((await phone.get(callback)).text).toContain('Approve sign-in on your computer?');
    expect((await laptop.get(callback)).text).toContain('Confirm sign-in');
    await phone.post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it('an approval posted from another site is refused', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'csrf@example.com');
    const res = await phoneOf(h).post(callback).set('origin', 'https://evil.example').type('form').send({ match });
    expect(res.status).toBe(403);
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
  });

  it('approves without a body parser on the callback route', async () => {
    const h = await app({
      routes: () => undefined,
    });
    // The harness's POST route has parsers; a route without them reads the small form itself.
    h.app.post('/bare-callback', h.passport.authenticate(h.strategy.name, { successRedirect: '/me' }));
    const { laptop, match, callback } = await askOnLaptop(h, 'bare@example.com');
    const url = callback.replace('/auth/callback', '/bare-callback');
    const res = await phoneOf(h).post(url).type('form').send({ match });
    expect(res.text).toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it("'refuse' answers 403 WRONG_BROWSER to the phone and spends nothing", async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    const { laptop, callback } = await askOnLaptop(h, 'refuse@example.com');
    expect((await phoneOf(h).get(callback)).status).toBe(403);
    expect((await laptop.get(callback)).status).toBe(302);
  });

  it("'accept' signs in the browser that opened the link", async () => {
    const h = await app({ strategy: { crossDevice: 'accept' } });
    const { callback } = await askOnLaptop(h, 'accept@example.com');
    const phone = phoneOf(h);
    expect((await phone.get(callback)).status).toBe(302);
    expect((await phone.get('/me')).status).toBe(200);
  });

  it('booleans are no longer accepted for crossDevice', async () => {
    await expect(app({ strategy: { crossDevice: true as never } })).rejects.toThrow(
      "MagicLinkStrategy: options.crossDevice must be one of 'handoff', 'refuse', 'accept'",
    );
  });
});

// A cross-device flow whose stored record is gone,
// unreadable, taken by another tab, or past its link's expiry on the store's clock. What the
// asking browser sees: its status says "expired" and its callback refuses (401), never a 500,
// never "pending", never a login.

describe('a flow the store no longer holds as written', () => {
  it('evicted by the store: expired', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, flowKey } = await askForLink(h, store, 'evicted@example.com');
    await store.inner.take(flowKey);
    await expectExpired(laptop);
  });

  it.each([
    ['not JSON', 'garbage{'],
    ['JSON null', 'null'],
    ['without exp', JSON.stringify({ v: 1, s: 'pending', m: '42', a: {} })],
    ['of another version', JSON.stringify({ v: 2, s: 'approved', m: '42', exp: Date.now() + 60_000, a: {} })],
    ['with an unknown state', JSON.stringify({ v: 1, s: 'taken', m: '42', exp: Date.now() + 60_000, a: {} })],
  ])('overwritten with a record %s: expired', async (_what, value) => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, flowKey } = await askForLink(h, store, 'garbage@example.com');
    await store.overwrite(flowKey, value, 60_000);
    await expectExpired(laptop);
  });

  it('approved on the phone, but another tab took it first: this one is not signed in', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'other-tab@example.com');
    const phone = h.browser();
    expect((await phone.post(callback).type('form').send({ match })).status).toBe(200);
    expect((await laptop.get('/auth/status')).body.status).toBe('approved');
    store.loseNextTake = true;
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(401);
    expect((await laptop.get('/me')).status).toBe(401);
  });
});

describe('the stored flow lives as long as its link, not longer', () => {
  it('once the link has expired on the store clock, the flow is gone: expired', async () => {
    const store = new WatchedFlowStore();
    // expiry: 600 s (the strategy's clock does not move, so only the store can drop the flow).
    const h = await pool.harness({ strategy: { store: store, expiry: 600 } });
    const { laptop } = await askForLink(h, store, 'ttl@example.com');
    store.now += 600_000 + 1_000;
    expect((await laptop.get('/auth/status')).body.status).not.toBe('pending');
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(401);
  });

  it('before that, it is still there: pending', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store, expiry: 600 } });
    const { laptop } = await askForLink(h, store, 'ttl-live@example.com');
    store.now += 590_000;
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
  });
});

describe('the number typed on the phone ', () => {
  it('typed with spaces around it: approved, and the laptop signs in', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'spaces@example.com');
    const approved = await h.browser().post(callback).type('form').send(`match=%20${match}%20`);
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/callback')).status).toBe(302);
    expect((await laptop.get('/me')).status).toBe(200);
  });

  it('sent twice in one form (not one string): no answer (the page asks again, 400), never a 500, and the flow waits', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'twice@example.com');
    const res = await h.browser().post(callback).type('form').send(`match=${match}&match=${match}`);
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
    expect((await laptop.get('/me')).status).toBe(401);
  });

  it('the right number, but the service refuses the code at approval: nothing proven, the flow waits, nobody signed in', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'refused-code@example.com');
    h.emulator.fault({
      path: '/auth/v1/verify/code',
      status: 400,
      body: { message: 'Request error: Invalid code', errorCode: '7118' },
      times: 1,
    });
    const phone = h.browser();
    const res = await phone.post(callback).type('form').send({ match });
    expect(res.status).toBeLessThan(500);
    expect(res.text).not.toContain('You are signed in on your computer');
    // A code the service refuses proves nothing: it neither approves nor denies (issue 19).
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
    expect((await laptop.get('/me')).status).toBe(401);
    expect((await phone.get('/me')).status).toBe(401);
  });
});

// A stored flow record of this
// version's shape with one field wrong (as a broken writer, a foreign one or an older release
// would leave it), an approval that does not open for this flow, a record at its expiry to the
// millisecond, and a store that refuses a new flow. What the asking browser sees: its status
// says "expired" and its callback refuses (401), never "pending", never a login.

afterEach(() => {
  vi.useRealTimers();
});

describe('a stored record of this shape with one field wrong is no flow', () => {
  it.each<[string, (r: Record<string, unknown>) => Record<string, unknown>]>([
    ['of the previous version', (r) => ({ ...r, version: 2 })],
    ['with expiresAt as text', (r) => ({ ...r, expiresAt: String(r.expiresAt) })],
    ['without expiresAt', ({ expiresAt: _dropped, ...r }) => r],
    ['with an unknown state', (r) => ({ ...r, state: 'taken' })],
    ['without askedBy', ({ askedBy: _dropped, ...r }) => r],
    ['with askedBy as text', (r) => ({ ...r, askedBy: 'a laptop' })],
    ['with sendIds not a list', (r) => ({ ...r, sendIds: 'abc' })],
  ])('%s: expired', async (_what, alter) => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, flowKey, flowId } = await askForLink(h, store, 'one-field@example.com');
    await store.overwriteRecord(flowKey, flowId, alter(await store.record(flowKey, flowId)), 600_000);
    await expectExpired(laptop);
  });
});

describe('a record that does not open for this flow signs nobody in', () => {
  it.each([
    ['another flow’s approved record', 'other'],
    ['not a sealed value', 'garbage'],
    ['an approved record in clear', 'clear'],
  ])('%s: the flow is gone, the callback refuses (401), never a 500', async (_what, kind) => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    // Another flow approved on its phone: its sealed record is valid, but for that flow only.
    const other = await askForLink(h, store, 'other-flow@example.com');
    expect((await h.browser().post(other.callback).type('form').send({ match: other.match })).status).toBe(200);
    const approved = await store.record(other.flowKey, other.flowId);
    const { laptop, flowKey } = await askForLink(h, store, 'transplant@example.com');
    const raw = { other: await store.inner.get(other.flowKey), garbage: 'x.y.z', clear: JSON.stringify(approved) }[
      kind
    ];
    await store.overwrite(flowKey, raw!, 600_000);
    await expectExpired(laptop);
  });
});

describe('a flow is over at its expiresAt, to the millisecond', () => {
  it('status one millisecond before: pending; at expiresAt: expired', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.harness({ strategy: { store: store } });
    const { laptop, flowKey, flowId } = await askForLink(h, store, 'edge@example.com');
    // The record ends before the browser's own note of the send does, so only the record decides.
    const end = Date.now() + 5_000;
    const record = { ...(await store.record(flowKey, flowId)), expiresAt: end };
    await store.overwriteRecord(flowKey, flowId, record, 600_000);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(end - 1);
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
    vi.setSystemTime(end);
    expect((await laptop.get('/auth/status')).body.status).toBe('expired');
  });
});

describe('a store that does not keep a new flow', () => {
  it('send() answers 503 STORE_UNAVAILABLE and no link goes out', async () => {
    const store = new WatchedFlowStore();
    store.refuseFlows = true;
    const h = await pool.harness({ strategy: { store: store } });
    const before = h.emulator.outbox().length;
    const sent = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'not-kept@example.com' });
    expect(sent.status).toBe(503);
    expect(sent.body.error.code).toBe('STORE_UNAVAILABLE');
    expect(h.emulator.outbox()).toHaveLength(before);
  });
});

// What the flow store holds, as the
// app reads it back. An approval sealed under the app's own secret for this flow but not of
// this release's shape (a store shared with another release) signs nobody in; and when the
// store keeps no new flow, the app's error handler learns why.

const STORE_SECRET = 'shared-handoff-store-secret-0123456789ab';

/** A memory store that remembers the flow keys it was asked to create, and can refuse them. */
class KeyedStore extends MemoryFlowStore {
  readonly flowKeys: string[] = [];
  refuse = false;
  override create(key: string, value: string, ttlMs: number) {
    if (!key.startsWith('flow:')) return super.create(key, value, ttlMs);
    this.flowKeys.push(key);
    return this.refuse ? Promise.resolve(false) : super.create(key, value, ttlMs);
  }
}

describe('an approval sealed for this flow, not of this shape', () => {
  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['a number', 42],
    ['no verification', { approvedAt: 1 }],
    ['a verification without user details', { approvedAt: 1, verification: {} }],
    ['no approvedAt', { verification: { userDetails: { token: 'a-token' } } }],
  ])('%s: the laptop’s callback refuses (401), never a 500, nobody signed in', async (_what, shape) => {
    const store = new KeyedStore();
    const h = await pool.harness({ strategy: { store: store, storeSecret: STORE_SECRET } });
    const laptop = h.browser();
    const email = 'shape@example.com';
    expect((await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email })).status).toBe(200);
    const flowId = new URL(await clickLink(lastLinkTo(h.emulator, email)), h.baseUrl).searchParams.get('flow')!;
    const key = store.flowKeys.at(-1)!;
    // The server's own seal around an approval of the wrong shape.
    const secrets = new StoreSecrets(STORE_SECRET);
    const record = secrets.open(flowId, await store.take(key)) as Record<string, unknown>;
    await store.create(key, secrets.seal(flowId, { ...record, state: 'approved', approval: shape }), 600_000);
    expect((await laptop.get('/auth/status')).body.status).toBe('approved');
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(401);
    expect((await laptop.get('/me')).status).toBe(401);
  });
});

describe('a store that keeps no new flow', () => {
  it('503 STORE_UNAVAILABLE, and the error the app handles names the cause', async () => {
    const store = new KeyedStore();
    store.refuse = true;
    const causes: unknown[] = [];
    const h = await pool.harness({
      strategy: { store },
      // The app's own handling of a refused send (`onError`) gets the error with its cause, for its logs.
      send: {
        onError: (err, _req, _res, next) => {
          causes.push([err.code, (err.cause as Error | undefined)?.message]);
          next(err);
        },
      },
    });
    const sent = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'not-kept@example.com' });
    expect(sent.status).toBe(503);
    expect(causes).toEqual([['STORE_UNAVAILABLE', 'the flow store did not keep a new flow']]);
  });
});

// An approval bound to its flow's send, a deny that
// needs proof, used-token marks that flows never evict, a token from a service clock running
// ahead, a memory store that sweeps as it goes, and older flow records treated as absent.

let emulator: Emulator;
beforeAll(() => {
  emulator = pool.emulator();
});

/** An app without send limits: these tests send more links than a limit lets through. */
async function unlimitedApp(options: HarnessOptions = {}): Promise<Harness> {
  return pool.harness({ ...options, strategy: { limits: false, ...options.strategy } });
}

/** A laptop asks for a link; returns it with the number it shows and the link's callback path. */
async function ask(h: Harness, email: string) {
  const laptop = h.browser();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  return { laptop, match: sent.body.match as string, callback: await clickLink(lastLinkTo(emulator, email)) };
}

const codeOf = (h: Harness, callback: string) => new URL(callback, h.baseUrl).searchParams.get('code')!;
const flowOf = (h: Harness, callback: string) => new URL(callback, h.baseUrl).searchParams.get('flow')!;
const postToken = (h: Harness, token: string) => h.browser().post('/auth/callback').type('form').send({ token });

describe('an approval is bound to its flow send', () => {
  it("another send's valid code, even with the right number, approves nothing; the flow's own code still does", async () => {
    const h = await unlimitedApp();
    const victim = await ask(h, 'bound-victim@example.com');
    const attacker = await ask(h, 'bound-attacker@example.com');
    const forged = `/auth/callback?code=${codeOf(h, attacker.callback)}&flow=${flowOf(h, victim.callback)}`;
    const res = await h.browser().post(forged).type('form').send({ match: victim.match });
    expect(res.status).toBe(401);
    expect(res.text).toContain('This link cannot be used');
    expect((await victim.laptop.get('/auth/status')).body.status).toBe('pending');
    const own = await h.browser().post(victim.callback).type('form').send({ match: victim.match });
    expect(own.text).toContain('You are signed in on your computer');
    expect((await victim.laptop.get('/auth/callback')).status).toBe(302);
    expect((await victim.laptop.get('/me')).body.user.email).toBe('bound-victim@example.com');
  });
});

describe('a deny needs the proof an approval needs', () => {
  it('"This wasn\'t me" with a made-up code, or with a code of another send, leaves the flow waiting', async () => {
    const h = await unlimitedApp();
    const victim = await ask(h, 'deny-victim@example.com');
    const flow = flowOf(h, victim.callback);
    const madeUp = await h
      .browser()
      .post(`/auth/callback?code=not-a-code&flow=${flow}`)
      .type('form')
      .send({ decision: 'deny' });
    expect(madeUp.status).toBe(401);
    const other = await ask(h, 'deny-other@example.com');
    const foreign = `/auth/callback?code=${codeOf(h, other.callback)}&flow=${flow}`;
    expect((await h.browser().post(foreign).type('form').send({ decision: 'deny' })).status).toBe(401);
    expect((await victim.laptop.get('/auth/status')).body.status).toBe('pending');
  });

  it("with the flow's own code it denies, for good", async () => {
    const h = await unlimitedApp();
    const victim = await ask(h, 'deny-own@example.com');
    const res = await h.browser().post(victim.callback).type('form').send({ decision: 'deny' });
    expect(res.text).toContain('Sign-in cancelled');
    expect((await victim.laptop.get('/auth/status')).body.status).toBe('denied');
  });
});

describe('used-token marks hold', () => {
  it('flows filling the memory store never evict a mark: the spent token stays refused', async () => {
    const h = await unlimitedApp({ strategy: { store: new MemoryFlowStore({ maxEntries: 2 }) } });
    const token = emulator.issueToken({ email: 'mark@example.com' });
    expect((await postToken(h, token)).status).toBe(302);
    for (let i = 0; i < 4; i++) await ask(h, `filler-${i}@example.com`);
    expect((await postToken(h, token)).status).toBe(401);
  });

  it('a token the service dates beyond the clock skew in our future is refused; within it, logs in once', async () => {
    const closeAfter: Harness[] = [];
    const ahead = await startEmulator({ clients: [CLIENT], quiet: true });
    try {
      const h = await startHarness({ emulator: ahead, strategy: { limits: false } });
      closeAfter.push(h);
      ahead.advanceTime(30_000);
      const near = ahead.issueToken({ email: 'skew-near@example.com' });
      expect((await postToken(h, near)).status).toBe(302);
      expect((await postToken(h, near)).status).toBe(401);
      ahead.advanceTime(90_000);
      const far = ahead.issueToken({ email: 'skew-far@example.com' });
      const eve = h.browser();
      expect((await eve.post('/auth/callback').type('form').send({ token: far })).status).toBe(401);
      expect((await eve.get('/me')).status).toBe(401);
    } finally {
      await Promise.all(closeAfter.splice(0).map((x) => x.close()));
      await ahead.close();
    }
  });
});

describe('the memory store', () => {
  it('sweeps expired entries as it goes, long before it is full', async () => {
    let now = 1_000_000;
    const store = new MemoryFlowStore({}, () => now);
    for (let i = 0; i < 1_000; i++) await store.create(`flow:first-${i}`, '{}', 1_000);
    now += 2_000;
    for (let i = 0; i < 1_000; i++) await store.create(`flow:second-${i}`, '{}', 1_000);
    expect(store.size).toBe(1_000);
    // Marks go by generation: at most 30 s after their own expiry.
    const marks = new MemoryFlowStore({}, () => now);
    for (let i = 0; i < 1_000; i++) await marks.create(`token:first-${i}`, '1', 60_000);
    expect(await marks.get('token:first-1')).toBe('1');
    now += 90_001;
    for (let i = 0; i < 1_000; i++) await marks.create(`token:second-${i}`, '1', 60_000);
    expect(marks.size).toBe(1_000);
    expect(await marks.get('token:first-1')).toBeUndefined();
  });

  it('refuses a new mark when full of live marks, and keeps every one', async () => {
    const store = new MemoryFlowStore({ maxMarks: 2 });
    expect(await store.create('token:a', '1', 60_000)).toBe(true);
    expect(await store.create('token:b', '1', 60_000)).toBe(true);
    await expect(store.create('token:c', '1', 60_000)).rejects.toThrow(/maxMarks/);
    expect(await store.create('token:a', '1', 60_000)).toBe(false);
    expect(await store.create('flow:x', '{}', 60_000)).toBe(true);
  });

  it("keeps the strategy's own used-token marks (keyed digests, read without a second hash) apart and swept", async () => {
    let now = 1_000_000;
    const store = new MemoryFlowStore({}, () => now);
    const secrets = new StoreSecrets('a-test-store-secret-of-32-characters!');
    const keys = Array.from({ length: 2_000 }, (_, i) => secrets.tokenKey(`token-${i}`));
    expect(keys.every((key) => /^token:[A-Za-z0-9_-]{21}[AQgw]$/.test(key))).toBe(true);
    for (const key of keys) expect(await store.create(key, '1', 60_000)).toBe(true);
    for (const key of keys) expect(await store.create(key, '1', 60_000)).toBe(false);
    // Same shape, another digest (one character changed, first, middle or last): not marked.
    const key = keys[0]!;
    const swap = (at: number, to: string) => `${key.slice(0, at)}${key[at] === to ? 'w' : to}${key.slice(at + 1)}`;
    for (const near of [swap(6, 'A'), swap(16, 'A'), swap(key.length - 1, 'Q')]) {
      expect(await store.get(near)).toBeUndefined();
    }
    // A key that is not a canonical digest (trailing bits set) is its own key, hashed.
    expect(await store.get(`${key.slice(0, -1)}B`)).toBeUndefined();
    expect(await store.take(keys[1]!)).toBe('1');
    expect(await store.get(keys[1]!)).toBeUndefined();
    expect(await store.get(keys[2]!)).toBe('1');
    now += 90_001;
    expect(await store.get(keys[2]!)).toBeUndefined();
    expect(store.size).toBe(0);
  });
});

describe('flow records', () => {
  it('are sealed whole with a version; a record of an older shape (sealed or not) is treated as absent', async () => {
    const store = new MemoryFlowStore();
    const secrets = new StoreSecrets('a-test-store-secret-of-32-characters!');
    const handoff = new Handoff(store, secrets);
    const now = Date.now();
    const { raw } = await handoff.start(
      'A'.repeat(22),
      { expiresAt: now + 60_000, askedBy: { browser: 'Firefox', at: now } },
      now,
    );
    expect(raw).not.toContain('pending');
    expect(raw).not.toContain('Firefox');
    expect(secrets.open('A'.repeat(22), raw)).toEqual({
      version: 3,
      state: 'pending',
      expiresAt: now + 60_000,
      askedBy: { browser: 'Firefox', at: now },
    });
    const older = [
      JSON.stringify({ v: 1, s: 'pending', m: '42', exp: now + 60_000, a: { at: now } }),
      JSON.stringify({ version: 2, state: 'pending', expiresAt: now + 60_000, askedBy: { at: now } }),
      secrets.seal('B'.repeat(22), { version: 2, state: 'pending', expiresAt: now + 60_000, askedBy: { at: now } }),
    ];
    for (const old of older) {
      await store.take(secrets.flowKey('B'.repeat(22)));
      await store.create(secrets.flowKey('B'.repeat(22)), old, 60_000);
      expect(await handoff.read('B'.repeat(22), now)).toBeUndefined();
      expect((await handoff.status('B'.repeat(22), now)).status).toBe('expired');
    }
  });
});

describe('discard: the asking browser opened its own link', () => {
  it("with the send's expiry given, the flow goes and its approval is marked used until then (plus the margin), without opening the record", async () => {
    let clock = 1_000_000;
    const store = new MemoryFlowStore({}, () => clock);
    const secrets = new StoreSecrets('discard-test-secret-0123456789abcdef');
    const handoff = new Handoff(store, secrets);
    const flowId = 'AAAAAAAAAAAAAAAAAAAAAA';
    const expiresAt = clock + 600_000;
    await handoff.start(flowId, { expiresAt, askedBy: { at: clock } }, clock);
    await handoff.discard(flowId, clock, expiresAt);
    expect(await store.get(secrets.flowKey(flowId))).toBeUndefined();
    expect((await handoff.status(flowId, clock)).status).toBe('none');
    // The mark lives to the flow's end plus the 60 s margin (the memory store drops marks in
    // 30-second buckets, so at most that much later).
    clock = expiresAt + 60_000 - 1;
    expect(await store.get(secrets.approvalUsedKey(flowId))).toBeDefined();
    clock = expiresAt + 60_000 + 30_000;
    expect(await store.get(secrets.approvalUsedKey(flowId))).toBeUndefined();
  });

  it('a flow already gone leaves no mark', async () => {
    const store = new MemoryFlowStore();
    const secrets = new StoreSecrets('discard-test-secret-0123456789abcdef');
    await new Handoff(store, secrets).discard('BBBBBBBBBBBBBBBBBBBBBB', Date.now(), Date.now() + 600_000);
    expect(await store.get(secrets.approvalUsedKey('BBBBBBBBBBBBBBBBBBBBBB'))).toBeUndefined();
  });
});
