// SendLimiter counting in Redis, through each client the limits take (node-redis as
// `limits.redis`, node-redis and ioredis as the strategy's `store`), on one redis-server and on
// a three-master cluster: the same budgets as in memory, one script call per send on one
// server, and a reset that ends every pair of a destination.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendLimiter } from '../../src/limits/SendLimiter.js';
import type { SendDecision } from '../../src/limits/SendLimiter.js';
import type { SendLimitsOptions } from '../../src/limits/options.js';
import { redisCommandsOf } from '../../src/stores/redis.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { REDIS_CLI, startRedisCluster, type RedisCluster } from '../helpers/redisCluster.js';

/** The secret the limit keys' digests are keyed with: the same on every instance. */
const LIMIT_SECRET = 'limit-keys-secret-of-the-tests-0123456789';

type Limiter = (options: SendLimitsOptions) => SendLimiter;
const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const refused = (d: SendDecision) => (d.allowed ? undefined : d.by);
const WINDOW = { limit: 2, windowSeconds: 600 };

/** The behaviour every store must have, on a limiter made fresh (its own prefix) by `make`. */
function budgets(make: () => Promise<Limiter>) {
  it('pairs per (destination, IP), the 3x cap per destination, and the Retry-After of the window', async () => {
    const limiter = (await make())({ perDestination: WINDOW, perIp: false });
    const d = 'victim@redis.example';
    expect((await limiter.take('203.0.113.1', [d])).allowed).toBe(true);
    expect((await limiter.take('203.0.113.1', ['Victim+x@REDIS.example'])).allowed).toBe(true);
    const spent = await limiter.take('203.0.113.1', [d]);
    expect(refused(spent)).toBe('email');
    if (!spent.allowed) expect(spent.retryAfterSeconds).toBeGreaterThan(500);
    if (!spent.allowed) expect(spent.retryAfterSeconds).toBeLessThanOrEqual(600);
    // The owner's own pair is whole; then others fill the cap of 6, which stops everyone.
    for (const ip of ['198.51.100.1', '198.51.100.1', '192.0.2.1', '192.0.2.2']) {
      expect((await limiter.take(ip, [d])).allowed).toBe(true);
    }
    expect(refused(await limiter.take('192.0.2.3', [d]))).toBe('email');
    // A reset (a login went through) ends the count and every pair, the stranger's too.
    await limiter.resetDestination(d);
    expect((await limiter.take('203.0.113.1', [d])).allowed).toBe(true);
    expect((await limiter.take('203.0.113.1', [d])).allowed).toBe(true);
    expect(refused(await limiter.take('203.0.113.1', [d]))).toBe('email');
  });

  it('all or nothing over the IP and two destinations, and a refund gives the send back', async () => {
    const limiter = (await make())({ perDestination: WINDOW, perIp: { limit: 5, windowSeconds: 600 } });
    const ip = '203.0.113.20';
    expect((await limiter.take(ip, ['+14155550130'])).allowed).toBe(true);
    expect((await limiter.take(ip, ['+14155550130'])).allowed).toBe(true);
    // The number is spent: the address is not counted for this send, the IP is (an attempt).
    expect(refused(await limiter.take(ip, ['both@redis.example', '+1 415 555 0130']))).toBe('mobile');
    const third = await limiter.take(ip, ['both@redis.example']);
    expect(third.allowed).toBe(true);
    expect((await limiter.take(ip, ['both@redis.example'])).allowed).toBe(true);
    expect(refused(await limiter.take(ip, ['more@redis.example']))).toBe('ip');
    // A refund gives the destination back, never the IP's attempt: its 5 stay spent.
    if (third.allowed) await third.refund();
    expect(refused(await limiter.take(ip, ['both@redis.example']))).toBe('ip');
    expect(refused(await limiter.take(ip, ['more@redis.example']))).toBe('ip');
  });
}

describe.skipIf(!hasRedisServer())('send limits on one redis-server', () => {
  let server: RedisServer;
  let admin: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    closing.push(() => server.stop());
    admin = createClient({ url: server.url });
    await admin.connect();
    closing.push(() => admin.quit());
  }, 30_000);

  const nodeRedis = async () => {
    const client = createClient({ url: server.url });
    await client.connect();
    closing.push(() => client.quit());
    return client;
  };
  const ioredis = async () => {
    const client = new Redis(server.url, { lazyConnect: true });
    await client.connect();
    closing.push(() => client.quit());
    return client;
  };

  describe('node-redis as limits.redis', () => {
    budgets(async () => {
      const client = await nodeRedis();
      return (options) =>
        new SendLimiter({ ...options, redis: client, prefix: `t:${randomUUID()}:`, secret: LIMIT_SECRET });
    });
  });
  describe('ioredis as the store', () => {
    budgets(async () => {
      const redis = redisCommandsOf(await ioredis())!;
      return (options) => new SendLimiter(options, { redis, prefix: `t:${randomUUID()}:`, secret: LIMIT_SECRET });
    });
  });

  it('one script call per send, whatever it counts; the source is sent only when the server lacks it', async () => {
    const client = await nodeRedis();
    const limiter = new SendLimiter({ redis: client, prefix: `t:${randomUUID()}:`, secret: LIMIT_SECRET });
    const calls = async () => {
      const info = await admin.info('commandstats');
      const count = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
      return { evalsha: count('evalsha'), eval: count('eval') };
    };
    await admin.scriptFlush();
    const before = await calls();
    for (let i = 0; i < 10; i++) {
      expect((await limiter.take('203.0.113.30', [`rt-${i}@redis.example`, `+1415555014${i}`])).allowed).toBe(true);
    }
    const after = await calls();
    // Ten EVALSHAs; the first found no script, so one EVAL loaded it.
    expect(after.evalsha - before.evalsha).toBe(10);
    expect(after.eval - before.eval).toBe(1);
  });

  it('keeps every count under the prefix, hashed, with the TTL of its window', async () => {
    const prefix = `t:${randomUUID()}:`;
    const limiter = new SendLimiter({ redis: await nodeRedis(), prefix, secret: LIMIT_SECRET });
    await limiter.take('203.0.113.40', ['ttl@redis.example']);
    const keys = await admin.keys(`${prefix}*`);
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      expect(key).not.toMatch(/ttl@|redis\.example|203\.0\.113/);
      const ttl = await admin.pTTL(key);
      expect(ttl).toBeGreaterThan(800_000);
      expect(ttl).toBeLessThanOrEqual(900_000);
    }
  });
  it('keys are keyed digests: a reader cannot test a guessed number against them, another secret shares nothing', async () => {
    const prefix = `t:${randomUUID()}:`;
    const number = '+14155550177';
    const limiter = new SendLimiter({
      redis: await nodeRedis(),
      prefix,
      secret: LIMIT_SECRET,
      perDestination: { limit: 1, windowSeconds: 600 },
      perIp: false,
    });
    await limiter.take('203.0.113.41', [number]);
    const keys = await admin.keys(`${prefix}*`);
    expect(keys).toHaveLength(2);
    // What a reader of the store would try: the unkeyed SHA-256 of every number of a range.
    const unkeyed = createHash('sha256').update(`d:${number}`).digest('base64url').slice(0, 22);
    expect(keys.some((k) => k.includes(unkeyed))).toBe(false);
    expect(refused(await limiter.take('203.0.113.41', [number]))).toBe('mobile');
    // A limiter with another secret finds none of these counts.
    const other = new SendLimiter({
      redis: await nodeRedis(),
      prefix,
      secret: `${LIMIT_SECRET}-other`,
      perDestination: { limit: 1, windowSeconds: 600 },
      perIp: false,
    });
    expect((await other.take('203.0.113.41', [number])).allowed).toBe(true);
    // Counting in Redis with no secret is refused at start-up: the keys would be unkeyed.
    expect(() => new SendLimiter({ redis: admin as never })).toThrow(
      'SendLimiter: options.secret must be a secret of at least 32 characters, the same on every instance, when the counts live in Redis',
    );
  });

  it('refuses at once, with the store error, while the client is not connected (either client)', async () => {
    const node = createClient({ url: server.url });
    await node.connect();
    node.destroy();
    const io = new Redis(server.url, { lazyConnect: true });
    const limiters = [
      new SendLimiter({ redis: node, prefix: 'down:', secret: LIMIT_SECRET }),
      new SendLimiter({}, { redis: redisCommandsOf(io)!, prefix: 'down:', secret: LIMIT_SECRET }),
    ];
    for (const limiter of limiters) {
      await expect(limiter.take('203.0.113.60', ['down@redis.example'])).rejects.toThrow(
        /send limits: the store failed \(the Redis client is not connected\)/,
      );
      await expect(limiter.resetDestination('down@redis.example')).rejects.toThrow(/store failed/);
    }
  });

  it('a count given back to zero keeps its window, and the IP keeps its attempt', async () => {
    const prefix = `t:${randomUUID()}:`;
    const limiter = new SendLimiter({
      redis: await nodeRedis(),
      prefix,
      secret: LIMIT_SECRET,
      perIp: { limit: 5, windowSeconds: 600 },
    });
    const first = await limiter.take('203.0.113.50', ['zero@redis.example']);
    const [ipKey] = await admin.keys(`${prefix}i:*`);
    const [destinationKey] = await admin.keys(`${prefix}d:*`);
    // The window as if it had started long ago: 100 s left of 600.
    await admin.pExpire(destinationKey!, 100_000);
    if (first.allowed) await first.refund();
    expect(await admin.get(destinationKey!)).toBe('0:0');
    expect(await admin.get(ipKey!)).toBe('1');
    await limiter.take('203.0.113.50', ['zero@redis.example']);
    expect(await admin.get(destinationKey!)).toBe('1:0');
    expect(await admin.pTTL(destinationKey!)).toBeLessThanOrEqual(100_000);
    expect(await admin.get(ipKey!)).toBe('2');
  });
});

describe.skipIf(!hasRedisServer() || !existsSync(REDIS_CLI))('send limits on a three-master Redis Cluster', () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    closing.push(() => cluster.stop());
  }, 60_000);

  describe('node-redis createCluster() as the store', () => {
    budgets(async () => {
      const client = createCluster({
        rootNodes: cluster.nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })),
      });
      await client.connect();
      closing.push(() => client.quit());
      const redis = redisCommandsOf(client)!;
      return (options) => new SendLimiter(options, { redis, prefix: `t:${randomUUID()}:`, secret: LIMIT_SECRET });
    });
  });
  describe('ioredis Cluster as the store', () => {
    budgets(async () => {
      const client = new Cluster(cluster.nodes);
      await once(client, 'ready');
      closing.push(() => client.quit());
      const redis = redisCommandsOf(client)!;
      return (options) => new SendLimiter(options, { redis, prefix: `t:${randomUUID()}:`, secret: LIMIT_SECRET });
    });
  });
});
