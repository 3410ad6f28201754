import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { RedisFlowStore } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from '../helpers/harness.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

describe.skipIf(!hasRedisServer())('handoff across two instances sharing one Redis', () => {
  let server: RedisServer;
  let client: ReturnType<typeof createClient>;
  let emulator: Emulator;
  let a: Harness;
  let b: Harness;

  beforeAll(async () => {
    server = await startRedisServer();
    client = createClient({ url: server.url });
    await client.connect();
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    const flowStore = new RedisFlowStore({ client, prefix: 'multi:' });
    a = await startHarness({ emulator, strategy: { flowStore } });
    b = await startHarness({ emulator, strategy: { flowStore } });
  }, 30_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await emulator?.close();
    await client?.quit();
    await server?.stop();
  });

  it('the laptop asks on A, the phone approves on B, the laptop finishes on A', async () => {
    const laptop = a.browser();
    const sent = await laptop
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'multi@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'multi@example.com'));
    const phone = b.browser();
    expect((await phone.get(callback)).text).toContain('Approve sign-in on your computer?');
    const approved = await phone.post(callback).type('form').send({ match: sent.body.match });
    expect(approved.text).toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/status')).body.status).toBe('approved');
    expect((await laptop.get('/auth/callback')).status).toBe(302);
    expect((await laptop.get('/me')).body.record.handoff).toBe(true);
    // Nothing of the flow is left in Redis, and nothing there ever named the flow id.
    expect(await client.keys('multi:flow:*')).toEqual([]);
  });

  it('the store holds no code, token or flow id in clear', async () => {
    const laptop = a.browser();
    const sent = await laptop
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'clear@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'clear@example.com'));
    const url = new URL(callback, a.baseUrl);
    await b.browser().post(callback).type('form').send({ match: sent.body.match });
    const keys = await client.keys('multi:flow:*');
    expect(keys).toHaveLength(1);
    const stored = `${keys[0]} ${await client.get(keys[0]!)}`;
    expect(stored).not.toContain(url.searchParams.get('flow'));
    expect(stored).not.toContain(url.searchParams.get('code'));
    expect(stored).not.toMatch(/token/i);
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });
});
