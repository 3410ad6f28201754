// Shared state in practice: the warning when sessions are shared and state is not, and Redis
// stopped in the middle of a flow (a clear 503, nothing half-written, a retry that works).
import { MemoryStore as FastifySessionMemory } from '@fastify/session';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from '../helpers/harness.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

/** Warnings are emitted on the next tick. */
const settle = () => new Promise((r) => setImmediate(r));

describe.skipIf(!hasRedisServer())('shared state', () => {
  let dir: string;
  let server: RedisServer;
  let client: ReturnType<typeof createClient>;
  let emulator: Emulator;
  const harnesses: Harness[] = [];
  const warnings: string[] = [];
  const onWarning = (w: Error & { code?: string }) => {
    if (w.name === 'PassportOtplessWarning' && w.code) warnings.push(w.code);
  };

  // Kept on disk, so a restarted server still has the flow it held when it stopped.
  const start = (port?: number) =>
    startRedisServer({ port, extra: ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir] });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'otpless-redis-'));
    server = await start();
    client = createClient({ url: server.url });
    client.on('error', () => undefined);
    await client.connect();
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    process.on('warning', onWarning);
  }, 30_000);
  afterAll(async () => {
    process.off('warning', onWarning);
    for (const h of harnesses) await h.close();
    await emulator?.close();
    await client?.quit();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function app(store: boolean, sessionStore?: object): Promise<Harness> {
    const h = await startHarness({
      emulator,
      session: 'express',
      sessionStore: (sessionStore ?? new RedisStore({ client, prefix: `sess-${harnesses.length}:` })) as RedisStore,
      strategy: store ? { store: client } : {},
    });
    harnesses.push(h);
    return h;
  }

  it('sessions in Redis with flows in memory: one warning at the first request names the store option', async () => {
    const shared = await app(true);
    await shared.browser().post('/auth/magic-link').set('accept', 'application/json').send({ email: 'w1@example.com' });
    await settle();
    expect(warnings).not.toContain('OTPLESS_STATE_IN_MEMORY');
    // @fastify/session's default store keeps sessions in this process too: nothing is shared.
    const local = await app(false, new FastifySessionMemory());
    await local.browser().post('/auth/magic-link').set('accept', 'application/json').send({ email: 'w0@example.com' });
    await settle();
    expect(warnings).not.toContain('OTPLESS_STATE_IN_MEMORY');
    const alone = await app(false);
    await alone.browser().post('/auth/magic-link').set('accept', 'application/json').send({ email: 'w2@example.com' });
    await alone.browser().post('/auth/magic-link').set('accept', 'application/json').send({ email: 'w3@example.com' });
    await settle();
    expect(warnings.filter((c) => c === 'OTPLESS_STATE_IN_MEMORY')).toHaveLength(1);
  });

  it('Redis stopped mid-flow: a clear 503, the flow untouched; after Redis is back the same link approves', async () => {
    const h = await app(true);
    const laptop = h.browser();
    const sent = await laptop
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'down@example.com' });
    expect(sent.status).toBe(200);
    const callback = await clickLink(lastLinkTo(emulator, 'down@example.com'));
    const phone = h.browser();

    const port = server.port;
    await server.stop();
    const approval = await phone.post(callback).type('form').send({ match: sent.body.match });
    expect(approval.status).toBe(503);
    expect(approval.body.error.code).toBe('STORE_UNAVAILABLE');
    const another = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'down2@example.com' });
    expect(another.status).toBe(503);

    server = await start(port);
    if (!client.isReady) await once(client, 'ready');
    // The approval failed before the code was verified: the same link works now.
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
    const retry = await phone.post(callback).type('form').send({ match: sent.body.match });
    expect(retry.text).toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  }, 30_000);
});
