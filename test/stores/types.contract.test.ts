import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { MemoryFlowStore, RedisFlowStore, type FlowStore } from '../../src/index.js';
import { REDIS_CLI, startRedisCluster, type RedisCluster } from '../helpers/redisCluster.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

/** One suite, every store: what the strategy relies on must hold for each of them. */
function contract(name: string, make: () => FlowStore) {
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
      await store.create(k, 'v', 150);
      expect(await store.swap(k, 'v', 'w')).toBe(true);
      // Gone once the TTL has run (asked until then, no margin guessed), the swap having kept it.
      while ((await store.get(k)) !== undefined) await new Promise((r) => setTimeout(r, 20));
      expect(await store.take(k)).toBeUndefined();
      expect(await store.create(k, 'again', 1000)).toBe(true);
    });
  });
}

contract('MemoryFlowStore', () => new MemoryFlowStore());

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

interface Connected {
  client: object;
  close(): Promise<unknown>;
}

/** Each Redis client the `store` option takes, on one server and on a three-master cluster. */
const CLIENTS: Array<{
  name: string;
  single(url: string): Promise<Connected>;
  cluster(nodes: Array<{ host: string; port: number }>): Promise<Connected>;
}> = [
  {
    name: 'node-redis',
    async single(url) {
      const client = createClient({ url });
      await client.connect();
      return { client, close: () => client.quit() };
    },
    async cluster(nodes) {
      const client = createCluster({ rootNodes: nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })) });
      await client.connect();
      return { client, close: () => client.quit() };
    },
  },
  {
    name: 'ioredis',
    async single(url) {
      const client = new Redis(url, { lazyConnect: true });
      await client.connect();
      return { client, close: () => client.quit() };
    },
    async cluster(nodes) {
      const client = new Cluster(nodes);
      await once(client, 'ready');
      return { client, close: () => client.quit() };
    },
  },
];

describe.skipIf(!hasRedisServer())('RedisFlowStore on one redis-server', () => {
  let server: RedisServer;
  const connected: Record<string, Connected> = {};
  beforeAll(async () => {
    server = await startRedisServer();
    for (const c of CLIENTS) connected[c.name] = await c.single(server.url);
  }, 30_000);
  afterAll(async () => {
    for (const c of Object.values(connected)) await c.close();
    await server?.stop();
  });

  for (const { name } of CLIENTS) {
    contract(
      `RedisFlowStore (${name}, single)`,
      () => new RedisFlowStore({ client: connected[name]!.client, prefix: 'test:' }),
    );
  }

  it('keys carry the prefix, whatever the client', async () => {
    for (const { name } of CLIENTS) {
      const store = new RedisFlowStore({ client: connected[name]!.client, prefix: `${name}:` });
      await store.create('k', 'v', 10_000);
      expect(await (connected['node-redis']!.client as ReturnType<typeof createClient>).get(`${name}:k`)).toBe('v');
    }
  });

  it('refuses a client without the commands it needs', () => {
    expect(() => new RedisFlowStore({ client: {} as never })).toThrow('RedisFlowStore: options.client must be');
  });
});

describe.skipIf(!hasRedisServer() || !existsSync(REDIS_CLI))('RedisFlowStore on a three-master Redis Cluster', () => {
  let cluster: RedisCluster;
  const connected: Record<string, Connected> = {};
  beforeAll(async () => {
    cluster = await startRedisCluster();
    for (const c of CLIENTS) connected[c.name] = await c.cluster(cluster.nodes);
  }, 60_000);
  afterAll(async () => {
    for (const c of Object.values(connected)) await c.close();
    await cluster?.stop();
  });

  for (const { name } of CLIENTS) {
    contract(
      `RedisFlowStore (${name}, cluster)`,
      () => new RedisFlowStore({ client: connected[name]!.client, prefix: 'test:' }),
    );
  }
});
