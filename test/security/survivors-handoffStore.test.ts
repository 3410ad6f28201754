// Mutation survivors of flow/handoff.ts (docs/testing.md): what the flow store holds, as the
// app reads it back. An approval sealed under the app's own secret for this flow but not of
// this release's shape (a store shared with another release) signs nobody in; and when the
// store keeps no new flow, the app's error handler learns why.
import { describe, expect, it } from 'vitest';
import { StoreSecrets } from '../../src/flow/seal.js';
import { MemoryFlowStore } from '../../src/index.js';
import { clickLink, lastLinkTo } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

const pool = harnessPool();
const STORE_SECRET = 'survivors-handoff-store-secret-0123456789';

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
    const h = await pool.app({ strategy: { flowStore: store, storeSecret: STORE_SECRET } });
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
    const h = await pool.app({
      strategy: { flowStore: store },
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
