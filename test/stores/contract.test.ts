import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { MemoryFlowStore, RedisFlowStore, type FlowStore } from '../../src/index.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

/**
 * One suite, every store: what the strategy relies on must hold for each of them.
 * `pass(ms)` lets that much time pass for the store: a manual clock where the store takes one,
 * a real wait where the expiry is the server's own.
 */
function contract(name: string, make: () => FlowStore, pass: (ms: number) => Promise<void>) {
  describe(`${name} keeps the FlowStore contract`, () => {
    let n = 0;
    const key = () => `contract-${name}-${Date.now()}-${n++}`;

    it('create stores once (NX) and get reads it back', async () => {
      const store = make();
      const k = key();
      expect(await store.create(k, 'one', 10_000)).toBe(true);
      expect(await store.create(k, 'two', 10_000)).toBe(false);
      expect(await store.get(k)).toBe('one');
      expect(await store.get(`${k}-absent`)).toBeUndefined();
    });

    it('swap replaces only the expected value, once', async () => {
      const store = make();
      const k = key();
      await store.create(k, 'pending', 10_000);
      const results = await Promise.all([store.swap(k, 'pending', 'a'), store.swap(k, 'pending', 'b')]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(['a', 'b']).toContain(await store.get(k));
      expect(await store.swap(`${k}-absent`, 'x', 'y')).toBe(false);
    });

    it('take returns the value once, across racing callers', async () => {
      const store = make();
      const k = key();
      await store.create(k, 'approved', 10_000);
      const taken = await Promise.all([store.take(k), store.take(k), store.take(k)]);
      expect(taken.filter((t) => t !== undefined)).toEqual(['approved']);
      expect(await store.get(k)).toBeUndefined();
    });

    it('entries expire with their TTL, and swap keeps it', async () => {
      const store = make();
      const k = key();
      // A TTL far longer than the step from create to swap, however busy the machine.
      await store.create(k, 'v', 1_000);
      expect(await store.swap(k, 'v', 'w')).toBe(true);
      await pass(1_200);
      expect(await store.get(k)).toBeUndefined();
      expect(await store.take(k)).toBeUndefined();
      expect(await store.create(k, 'again', 1000)).toBe(true);
    });
  });
}

let memoryNow = Date.now();
contract(
  'MemoryFlowStore',
  () => new MemoryFlowStore({}, () => memoryNow),
  async (ms) => {
    memoryNow += ms;
  },
);

describe('MemoryFlowStore bounds', () => {
  it('never holds more than maxEntries, sweeping expired ones first', async () => {
    let now = 0;
    const store = new MemoryFlowStore({ maxEntries: 3 }, () => now);
    await store.create('a', '1', 10);
    await store.create('b', '2', 1000);
    await store.create('c', '3', 1000);
    now = 20; // a has expired
    await store.create('d', '4', 1000);
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBe('2');
    await store.create('e', '5', 1000); // full of live entries: the oldest (b) goes
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('e')).toBe('5');
  });

  it('checks its options', () => {
    expect(() => new MemoryFlowStore({ maxEntries: 0 })).toThrow('MemoryFlowStore: options.maxEntries must be');
  });
});

describe.skipIf(!hasRedisServer())('RedisFlowStore on a real redis-server', () => {
  let server: RedisServer;
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    client = createClient({ url: server.url });
    await client.connect();
  }, 30_000);
  afterAll(async () => {
    await client?.quit();
    await server?.stop();
  });

  contract(
    'RedisFlowStore',
    () => new RedisFlowStore({ client, prefix: 'test:' }),
    (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  );

  it('keys carry the prefix, and hold no flow id in clear', async () => {
    const store = new RedisFlowStore({ client, prefix: 'app1:' });
    await store.create('k', 'v', 10_000);
    expect(await client.get('app1:k')).toBe('v');
  });

  it('refuses a client without the commands it needs', () => {
    expect(() => new RedisFlowStore({ client: {} as never })).toThrow('RedisFlowStore: options.client must be');
  });
});
