// Mutation survivors of flow/handoff.ts (docs/testing.md): a stored flow record of this
// version's shape with one field wrong (as a broken writer, a foreign one or an older release
// would leave it), an approval that does not open for this flow, a record at its expiry to the
// millisecond, and a store that refuses a new flow. What the asking browser sees: its status
// says "expired" and its callback refuses (401), never "pending", never a login.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harnessPool } from '../helpers/pool.js';
import { askForLink, expectExpired, WatchedFlowStore } from '../helpers/watchedFlowStore.js';

const pool = harnessPool();

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
    const h = await pool.app({ strategy: { flowStore: store } });
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
    const h = await pool.app({ strategy: { flowStore: store } });
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
    const h = await pool.app({ strategy: { flowStore: store } });
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
