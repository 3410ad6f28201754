import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from 'connect-redis';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from '../helpers/harness.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

/** The two Redis clients the `store` option takes, each connected to the test's server. */
const KINDS = {
  'node-redis': async (url: string) => {
    const client = createClient({ url });
    await client.connect();
    return { client, close: () => client.quit() };
  },
  ioredis: async (url: string) => {
    const client = new Redis(url, { lazyConnect: true });
    await client.connect();
    return { client, close: () => client.quit() };
  },
};

describe.skipIf(!hasRedisServer())('two instances sharing one Redis through the store option', () => {
  let server: RedisServer;
  let reader: ReturnType<typeof createClient>;
  let emulator: Emulator;
  const closing: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    server = await startRedisServer();
    reader = createClient({ url: server.url });
    await reader.connect();
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  }, 30_000);
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    await emulator?.close();
    await reader?.quit();
    await server?.stop();
  });

  /** Instances A and B: sessions in connect-redis, everything else through `store`, one client each. */
  async function twoInstances(kind: keyof typeof KINDS, prefix: string): Promise<[Harness, Harness]> {
    const made: Harness[] = [];
    for (let i = 0; i < 2; i++) {
      const { client, close } = await KINDS[kind](server.url);
      closing.push(close);
      // connect-redis 9 takes node-redis only: with ioredis, sessions get a node-redis client of their own.
      const sessions = kind === 'node-redis' ? undefined : await KINDS['node-redis'](server.url);
      if (sessions) closing.push(sessions.close);
      const sessionClient = sessions?.client ?? (client as Awaited<ReturnType<(typeof KINDS)['node-redis']>>['client']);
      const sessionStore = new RedisStore({ client: sessionClient, prefix: `${prefix}sess:` });
      const h = await startHarness({
        emulator,
        session: 'express',
        sessionStore,
        strategy: { store: client, storePrefix: prefix },
      });
      closing.push(() => h.close());
      made.push(h);
    }
    return made as [Harness, Harness];
  }

  for (const kind of Object.keys(KINDS) as Array<keyof typeof KINDS>) {
    it(`${kind}: the laptop asks on A, the phone approves on B, the laptop finishes on A`, async () => {
      const prefix = `multi-${kind}:`;
      const [a, b] = await twoInstances(kind, prefix);
      const email = `multi-${kind}@example.com`;
      const laptop = a.browser();
      const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
      expect(sent.status).toBe(200);
      // The send was counted in Redis, where both instances see it.
      expect((await reader.keys(`${prefix}limit:*`)).length).toBeGreaterThan(0);
      const callback = await clickLink(lastLinkTo(emulator, email));
      const phone = b.browser();
      expect((await phone.get(callback)).text).toContain('Approve sign-in on your computer?');
      const approved = await phone.post(callback).type('form').send({ match: sent.body.match });
      expect(approved.text).toContain('You are signed in on your computer');
      expect((await laptop.get('/auth/status')).body.status).toBe('approved');
      expect((await laptop.get('/auth/callback')).status).toBe(302);
      expect((await laptop.get('/me')).body.record.handoff).toBe(true);
      // The flow is gone; the token's mark and the approval's stay, so neither logs in again.
      expect(await reader.keys(`${prefix}flow:*`)).toEqual([]);
      expect((await reader.keys(`${prefix}token:*`)).length).toBe(2);
    });
  }

  it('the store holds no code, token, flow id or number in clear', async () => {
    const [a, b] = await twoInstances('node-redis', 'clear:');
    const laptop = a.browser();
    const sent = await laptop
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'clear@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'clear@example.com'));
    const url = new URL(callback, a.baseUrl);
    await b.browser().post(callback).type('form').send({ match: sent.body.match });
    const keys = await reader.keys('clear:flow:*');
    expect(keys).toHaveLength(1);
    const stored = `${keys[0]} ${await reader.get(keys[0]!)}`;
    expect(stored).not.toContain(url.searchParams.get('flow'));
    expect(stored).not.toContain(url.searchParams.get('code'));
    expect(stored).not.toContain(`"${sent.body.match}"`);
    expect(stored).not.toMatch(/token/i);
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });
});
