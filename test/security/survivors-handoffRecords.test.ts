// Mutation survivors of flow/handoff.ts (docs/testing.md): a stored flow record of this
// version's shape with one field wrong (as a broken writer, a foreign one or an older release
// would leave it), an approval that does not open for this flow, a record at its expiry to the
// millisecond, and a store that refuses a new flow. What the asking browser sees: its status
// says "expired" and its callback refuses (401), never "pending", never a login.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryFlowStore, type FlowStore } from '../../src/index.js';
import { clickLink, lastLinkTo, type Harness } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

const pool = harnessPool();

/** A real memory store on its own clock, with the keys it was asked to create; `refuseFlows` makes it keep no new flow. */
class WatchedStore implements FlowStore {
  now = Date.now();
  readonly inner = new MemoryFlowStore({}, () => this.now);
  readonly keys: string[] = [];
  refuseFlows = false;
  create(key: string, value: string, ttlMs: number) {
    this.keys.push(key);
    if (this.refuseFlows && key.startsWith('flow:')) return Promise.resolve(false);
    return this.inner.create(key, value, ttlMs);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  swap(key: string, expected: string, next: string) {
    return this.inner.swap(key, expected, next);
  }
  take(key: string) {
    return this.inner.take(key);
  }
  /** The stored record, parsed. */
  async record(key: string): Promise<Record<string, unknown>> {
    return JSON.parse((await this.inner.get(key))!) as Record<string, unknown>;
  }
  /** Replaces a stored record as a broken or foreign writer would. */
  async overwrite(key: string, value: unknown) {
    await this.inner.take(key);
    await this.inner.create(key, JSON.stringify(value), 600_000);
  }
}

/** The laptop asks for a link (cross-device handoff, the default). */
async function ask(h: Harness, store: WatchedStore, email: string) {
  const laptop = h.browser();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const flowKey = store.keys.filter((k) => k.startsWith('flow:')).at(-1)!;
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  expect((await laptop.get('/auth/status')).body.status).toBe('pending');
  return { laptop, flowKey, callback, match: sent.body.match as string };
}

async function expectExpired(laptop: ReturnType<Harness['browser']>) {
  const status = await laptop.get('/auth/status');
  expect(status.status).toBe(200);
  expect(status.body.status).toBe('expired');
  const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
  expect(finished.status).toBe(401);
  expect((await laptop.get('/me')).status).toBe(401);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a stored record of this shape with one field wrong is no flow', () => {
  it.each<[string, (r: Record<string, unknown>) => Record<string, unknown>]>([
    ['of the previous version', (r) => ({ ...r, version: 1 })],
    ['with expiresAt as text', (r) => ({ ...r, expiresAt: String(r.expiresAt) })],
    ['without expiresAt', ({ expiresAt: _dropped, ...r }) => r],
    ['with an unknown state', (r) => ({ ...r, state: 'taken' })],
    ['without askedBy', ({ askedBy: _dropped, ...r }) => r],
    ['with askedBy as text', (r) => ({ ...r, askedBy: 'a laptop' })],
    ['with sendIds not a list', (r) => ({ ...r, sendIds: 'abc' })],
  ])('%s: expired', async (_what, alter) => {
    const store = new WatchedStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, flowKey } = await ask(h, store, 'one-field@example.com');
    await store.overwrite(flowKey, alter(await store.record(flowKey)));
    await expectExpired(laptop);
  });
});

describe('an approval that does not open for this flow signs nobody in', () => {
  it.each([
    ['another flow’s sealed approval', 'other'],
    ['not a sealed value', 'garbage'],
  ])('%s in an approved record: the callback refuses (401), never a 500', async (_what, kind) => {
    const store = new WatchedStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    // Another flow approved on its phone: its sealed approval is valid, but for that flow only.
    const other = await ask(h, store, 'other-flow@example.com');
    expect((await h.browser().post(other.callback).type('form').send({ match: other.match })).status).toBe(200);
    const { approval } = await store.record(other.flowKey);
    const { laptop, flowKey } = await ask(h, store, 'transplant@example.com');
    const record = await store.record(flowKey);
    await store.overwrite(flowKey, { ...record, state: 'approved', approval: kind === 'other' ? approval : 'x.y.z' });
    expect((await laptop.get('/auth/status')).body.status).toBe('approved');
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(401);
    expect((await laptop.get('/me')).status).toBe(401);
  });
});

describe('a flow is over at its expiresAt, to the millisecond', () => {
  it('status one millisecond before: pending; at expiresAt: expired', async () => {
    const store = new WatchedStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, flowKey } = await ask(h, store, 'edge@example.com');
    // The record ends before the browser's own note of the send does, so only the record decides.
    const end = Date.now() + 5_000;
    await store.overwrite(flowKey, { ...(await store.record(flowKey)), expiresAt: end });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(end - 1);
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
    vi.setSystemTime(end);
    expect((await laptop.get('/auth/status')).body.status).toBe('expired');
  });
});

describe('a store that does not keep a new flow', () => {
  it('send() answers 503 STORE_UNAVAILABLE and no link goes out', async () => {
    const store = new WatchedStore();
    store.refuseFlows = true;
    const h = await pool.app({ strategy: { flowStore: store } });
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
