// Send limits on a real redis-server shared by two app instances (two strategies, two node-redis
// clients, as two processes would have), and what happens when the store goes down.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { hasRedisServer, REDIS_SERVER, startRedisServer } from '../helpers/redisServer.js';
import type { RedisServer } from '../helpers/redisServer.js';

/** The secret the limit keys' digests are keyed with: the same on every instance. */
const LIMIT_SECRET = 'limit-keys-secret-of-the-tests-0123456789';

type Client = ReturnType<typeof createClient>;
const json = { accept: 'application/json' };

if (!hasRedisServer()) {
  describe('send limits on Redis', () => {
    it.skip(`needs ${REDIS_SERVER} (apt-get install -y redis-server); CI installs it`, () => {});
  });
} else {
  const { harness } = useSharedEmulator();
  let redis: RedisServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await redis.stop();
  });

  /** A connected client of the app's own, with the 'error' listener an app must have. */
  async function connect(url = redis.url): Promise<Client> {
    const client = createClient({ url, socket: { reconnectStrategy: () => 200 } });
    client.on('error', () => undefined);
    clients.push(client);
    await client.connect();
    return client;
  }

  /** One app instance counting in Redis under `prefix`, through a client of its own. */
  async function instance(prefix: string, url?: string): Promise<{ h: Harness; client: Client }> {
    const client = await connect(url);
    const h = await harness({
      strategy: {
        limits: {
          redis: client,
          prefix,
          secret: LIMIT_SECRET,
          perDestination: { limit: 3, windowSeconds: 60 },
          perIp: { limit: 5, windowSeconds: 60 },
        },
      },
    });
    return { h, client };
  }

  const send = (h: Harness, body: object) => h.browser().post('/auth/magic-link').set(json).send(body);

  describe('send limits on Redis', () => {
    it('two instances share the counts per destination and per IP', async () => {
      const prefix = `t:${randomUUID()}:`;
      const a = await instance(prefix);
      const b = await instance(prefix);
      expect((await send(a.h, { email: 'multi@redis.example' })).status).toBe(200);
      expect((await send(b.h, { email: 'Multi+2@redis.example' })).status).toBe(200);
      expect((await send(a.h, { email: 'multi@REDIS.example' })).status).toBe(200);
      const refused = await send(b.h, { email: 'multi@redis.example' });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
      expect((await send(a.h, { email: 'multi@redis.example' })).status).toBe(429);
      // Five sends per IP across both: the five above (a refused one is an attempt too).
      const spent = await send(b.h, { mobile: '+919812345101' });
      expect(spent.status).toBe(429);
      expect(spent.body.error.message).toMatch(/^Too many sign-in links were asked for from this network\./);
    });

    it('keeps no address, number or IP in the clear in Redis, and only under the prefix', async () => {
      const prefix = `t:${randomUUID()}:`;
      const a = await instance(prefix);
      await send(a.h, { email: 'private@redis.example', mobile: '+919812345201' });
      const keys = await a.client.keys('*');
      const ours = keys.filter((k) => k.startsWith(prefix));
      // The IP; each destination; each destination from this IP.
      expect(ours.length).toBe(5);
      for (const key of ours) expect(key).not.toMatch(/private|redis\.example|9812345201|127\.0\.0\.1/);
    });

    it('fails closed when the store is down: 503 with a clear message, nothing sent', async () => {
      const own = await startRedisServer();
      try {
        const a = await instance(`t:${randomUUID()}:`, own.url);
        expect((await send(a.h, { email: 'down@redis.example' })).status).toBe(200);
        await own.stop();
        // Until the client has seen the connection go (or 10 s: then the send finds out itself).
        for (let i = 0; i < 500 && a.client.isReady; i++) await new Promise((r) => setTimeout(r, 20));
        const before = a.h.emulator.outbox().length;
        const res = await send(a.h, { email: 'down@redis.example' });
        expect(res.status).toBe(503);
        expect(res.body.error).toEqual({
          code: 'STORE_UNAVAILABLE',
          message: 'Sign-in links cannot be sent right now. Please try again in a few minutes.',
        });
        expect(a.h.emulator.outbox().length).toBe(before);
      } finally {
        await own.stop();
      }
    });
  });
}
