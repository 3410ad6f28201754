// An ioredis client used right after `new Redis()` is still connecting: the store and the send
// limits wait for it within their deadline (as ioredis's own offline queue would) instead of
// answering 503 STORE_UNAVAILABLE. The real redis-server is paused (SIGSTOP) while the client
// connects, so the client is held in the middle of connecting for as long as the test needs,
// with no clock involved; a disconnected or never-connected client is still refused at once.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisFlowStore } from '../../src/index.js';
import { SendLimiter } from '../../src/limits/SendLimiter.js';
import { redisCommandsOf } from '../../src/stores/redis.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

const SECRET = 'limit-keys-secret-of-the-tests-0123456789';

describe.skipIf(!hasRedisServer())('a store client still connecting is waited for', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    process.kill(server.pid, 'SIGCONT');
    await server.stop();
  });

  /** A new client held mid-connection (TCP up, its ready check unanswered) while `use` runs. */
  async function whileConnecting<T>(use: (client: Redis) => Promise<T>): Promise<{ result: T; client: Redis }> {
    process.kill(server.pid, 'SIGSTOP');
    const client = new Redis(server.url);
    try {
      await once(client, 'connect');
      expect(client.status).toBe('connect');
      const pending = use(client).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      // Let everything that can settle without the server settle: a refusal would, at once.
      await new Promise((resolve) => setImmediate(resolve));
      expect(client.listenerCount('ready')).toBeGreaterThan(0);
      process.kill(server.pid, 'SIGCONT');
      const outcome = await pending;
      if ('error' in outcome) throw outcome.error;
      return { result: outcome.value, client };
    } finally {
      process.kill(server.pid, 'SIGCONT');
    }
  }

  it('the flow store answers the first commands once the client is ready, not 503', async () => {
    const { result, client } = await whileConnecting(async (c) => {
      const store = new RedisFlowStore({ client: c, prefix: 'connecting:' });
      return [await store.create('k', 'v', 10_000), await store.get('k')];
    });
    expect(result).toEqual([true, 'v']);
    expect(client.listenerCount('ready')).toBe(0);
    await client.quit();
  });

  it('the send limits count the first sends once the client is ready, not STORE_UNAVAILABLE', async () => {
    const { result, client } = await whileConnecting(async (c) => {
      const limiter = new SendLimiter(
        { perDestination: { limit: 1, windowSeconds: 60 } },
        { redis: redisCommandsOf(c)!, prefix: 'connecting-limits:', secret: SECRET },
      );
      // Many sends at once share one wait on the client.
      const sends = await Promise.all(
        Array.from({ length: 20 }, (_, i) => limiter.take('203.0.113.7', [`first${i}@connecting.example`])),
      );
      return sends.map((d) => d.allowed);
    });
    expect(result.filter(Boolean)).toHaveLength(20);
    await client.quit();
  });

  it('a client that is not connecting (lazyConnect, never connected) is still refused at once', async () => {
    const client = new Redis(server.url, { lazyConnect: true });
    const store = new RedisFlowStore({ client, prefix: 'lazy-connecting:' });
    await expect(store.create('k', 'v', 10_000)).rejects.toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
    expect(client.listenerCount('ready')).toBe(0);
    client.disconnect();
  });
});
