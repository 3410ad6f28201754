// Which clients the Redis store takes, where its
// keys go, what it answers for a client that answers in bytes, and that a command it could not
// send in time ends as 503 STORE_UNAVAILABLE with nothing written after it.
import { Redis } from 'ioredis';
import { createClient, RESP_TYPES } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisFlowStore } from '../../src/index.js';
import { SendLimiter } from '../../src/limits/SendLimiter.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

const fn = () => Promise.resolve(null);

describe('what RedisFlowStore takes for a client', () => {
  it.each([
    ['null', null],
    ['a URL', 'redis://127.0.0.1:6379'],
    ['a node-redis look-alike without eval', { scanIterator: fn, set: fn, get: fn, getDel: fn }],
    ['a node-redis look-alike whose eval is no function', { masters: [], set: fn, get: fn, getDel: fn, eval: 1 }],
    ['commands without the mark of either client', { set: fn, get: fn, getDel: fn, getdel: fn, eval: fn }],
    ['an ioredis look-alike without getdel', { status: 'ready', set: fn, get: fn, eval: fn }],
  ])('refuses %s, naming the option', (_name, client) => {
    expect(() => new RedisFlowStore({ client: client as never })).toThrow(
      'RedisFlowStore: options.client must be a connected Redis client: node-redis createClient()/createCluster() or ioredis new Redis()/new Redis.Cluster()',
    );
  });

  it('takes a prefix of up to 100 characters, and refuses a longer one in those words', () => {
    const client = createClient();
    expect(new RedisFlowStore({ client, prefix: 'p'.repeat(100) }).prefix).toBe('p'.repeat(100));
    expect(() => new RedisFlowStore({ client, prefix: 'p'.repeat(101) })).toThrow(
      'RedisFlowStore: options.prefix must be a string of at most 100 characters',
    );
    expect(new RedisFlowStore({ client }).prefix).toBe('otpless:');
    expect(() => new RedisFlowStore({ client, prefix: 7 as never })).toThrow('RedisFlowStore: options.prefix must be');
    expect(() => new RedisFlowStore(undefined as never)).toThrow(
      'RedisFlowStore: options must be an object with client',
    );
  });
});

describe('a command that fails', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is 503 STORE_UNAVAILABLE once no answer came within 2 s, the cause saying so', async () => {
    vi.useFakeTimers();
    const never = () => new Promise(() => undefined);
    const store = new RedisFlowStore({
      client: { scanIterator: fn, isReady: true, set: never, get: never, getDel: never, eval: never },
    });
    const pending = store.get('k').catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(2_000);
    const err = (await pending) as { status: number; code: string; cause: Error };
    expect(err).toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
    expect(err.cause.message).toBe('no answer within 2000 ms');
  });

  it('that rejects with something not an Error is 503, its cause an Error that says what it was', async () => {
    const store = new RedisFlowStore({
      client: { status: 'ready', set: fn, get: () => Promise.reject('READONLY'), getdel: fn, eval: fn },
    });
    const err = (await store.get('k').catch((e: unknown) => e)) as { status: number; cause: unknown };
    expect(err.status).toBe(503);
    expect(err.cause).toBeInstanceOf(Error);
    expect((err.cause as Error).message).toBe('READONLY');
  });
});

describe.skipIf(!hasRedisServer())('RedisFlowStore on a redis-server', () => {
  let server: RedisServer;
  let reader: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    reader = createClient({ url: server.url });
    await reader.connect();
  }, 30_000);
  afterAll(async () => {
    await reader?.quit();
    await server?.stop();
  });

  it("keeps its keys under 'otpless:' unless told otherwise", async () => {
    const store = new RedisFlowStore({ client: reader });
    expect(await store.create('default-prefix', 'v', 10_000)).toBe(true);
    expect(await reader.get('otpless:default-prefix')).toBe('v');
  });

  it('stores an entry whose time is already up (at least 1 ms) instead of failing', async () => {
    const store = new RedisFlowStore({ client: reader, prefix: 'ttl:' });
    expect(await store.create('zero', 'v', 0)).toBe(true);
    expect(await store.create('below', 'v', -5)).toBe(true);
  });

  it("the send limits count through the store's node-redis client", async () => {
    const { redis } = new RedisFlowStore({ client: reader });
    const limiter = new SendLimiter(
      { perIp: { limit: 1, windowSeconds: 60 } },
      { redis, prefix: 'limits:', secret: 'limit-keys-secret-of-the-tests-0123456789' },
    );
    expect((await limiter.take('203.0.113.9', ['ada@example.com'])).allowed).toBe(true);
    expect((await limiter.take('203.0.113.9', ['bob@example.com'])).allowed).toBe(false);
  });

  it('reads the value of a client that answers in bytes as text', async () => {
    const bytes = reader.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    const store = new RedisFlowStore({ client: bytes, prefix: 'bytes:' });
    await store.create('k', 'välue', 10_000);
    expect(await store.get('k')).toBe('välue');
    expect(await store.take('k')).toBe('välue');
    expect(await store.take('k')).toBeUndefined();
  });

  it('refuses a command while the node-redis client is still connecting, and it is never sent later', async () => {
    const client = createClient({ url: server.url });
    const store = new RedisFlowStore({ client, prefix: 'connecting:' });
    const connecting = client.connect();
    const err = (await store.create('k', 'v', 10_000).catch((e: unknown) => e)) as { cause: Error };
    expect(err).toMatchObject({
      status: 503,
      code: 'STORE_UNAVAILABLE',
      message: 'Signing in is not possible right now. Please try again in a moment.',
    });
    expect(err.cause.message).toBe('the Redis client is not connected');
    await connecting;
    expect(await store.get('k')).toBeUndefined();
    expect(await reader.get('connecting:k')).toBeNull();
    await client.quit();
  });

  it('refuses a command while the ioredis client has not connected, and it is never sent later', async () => {
    const client = new Redis(server.url, { lazyConnect: true });
    const store = new RedisFlowStore({ client, prefix: 'lazy:' });
    await expect(store.create('k', 'v', 10_000)).rejects.toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
    await client.connect();
    expect(await store.get('k')).toBeUndefined();
    expect(await reader.get('lazy:k')).toBeNull();
    await client.quit();
  });
});
