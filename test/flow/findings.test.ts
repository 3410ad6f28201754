// One test per finding of the store review: an approval bound to its flow's send, a deny that
// needs proof, used-token marks that flows never evict, a token from a service clock running
// ahead, a memory store that sweeps as it goes, and older flow records treated as absent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFlowStore } from '../../src/index.js';
import { Handoff } from '../../src/flow/handoff.js';
import { StoreSecrets } from '../../src/flow/seal.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness, type HarnessOptions } from '../helpers/harness.js';

let emulator: Emulator;
const harnesses: Harness[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
afterAll(async () => {
  await emulator.close();
});

async function app(options: HarnessOptions = {}): Promise<Harness> {
  const h = await startHarness({ emulator, ...options, strategy: { limits: false, ...options.strategy } });
  harnesses.push(h);
  return h;
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
    const h = await app();
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
    const h = await app();
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
    const h = await app();
    const victim = await ask(h, 'deny-own@example.com');
    const res = await h.browser().post(victim.callback).type('form').send({ decision: 'deny' });
    expect(res.text).toContain('Sign-in cancelled');
    expect((await victim.laptop.get('/auth/status')).body.status).toBe('denied');
  });
});

describe('used-token marks hold', () => {
  it('flows filling the memory store never evict a mark: the spent token stays refused', async () => {
    const h = await app({ strategy: { flowStore: new MemoryFlowStore({ maxEntries: 2 }) } });
    const token = emulator.issueToken({ email: 'mark@example.com' });
    expect((await postToken(h, token)).status).toBe(302);
    for (let i = 0; i < 4; i++) await ask(h, `filler-${i}@example.com`);
    expect((await postToken(h, token)).status).toBe(401);
  });

  it('a token the service dates beyond the clock skew in our future is refused; within it, logs in once', async () => {
    const ahead = await startEmulator({ clients: [CLIENT], quiet: true });
    try {
      const h = await startHarness({ emulator: ahead, strategy: { limits: false } });
      harnesses.push(h);
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
      await Promise.all(harnesses.splice(0).map((x) => x.close()));
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
