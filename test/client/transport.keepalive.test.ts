import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import { type CaptureServer, startCaptureServer } from './helpers/captureServer.js';

let server: CaptureServer;
beforeEach(async () => {
  server = await startCaptureServer();
});
afterEach(async () => {
  await server.close();
});

const clientFor = (connections?: number) =>
  new OtplessClient({
    clientId: 'id',
    clientSecret: 'secret',
    authUrl: server.url,
    userAuthUrl: server.url,
    ...(connections ? { connections } : {}),
  });

describe('keep-alive pool', () => {
  it('50 sequential calls reuse the same one or two sockets', async () => {
    const client = clientFor();
    for (let i = 0; i < 50; i++) await client.getUserInfo(`tok-${i}`);
    expect(server.requests).toHaveLength(50);
    // undici's pool opens a second socket when the next call comes before the first socket
    // reports itself free again (a bare undici Agent does the same); never more.
    expect(server.connections()).toBeLessThanOrEqual(2);
    await client.close();
  });

  it('a burst of 300 concurrent calls opens at most `connections` sockets', async () => {
    const client = clientFor(8);
    await Promise.all(Array.from({ length: 300 }, (_, i) => client.verifyCode(`code-${i}`)));
    expect(server.requests).toHaveLength(300);
    expect(server.connections()).toBeLessThanOrEqual(8);
    await client.close();
  });

  it('both hosts share one client, each with its own pool', async () => {
    const other = await startCaptureServer();
    const client = new OtplessClient({
      clientId: 'id',
      clientSecret: 'secret',
      authUrl: server.url,
      userAuthUrl: other.url,
    });
    for (let i = 0; i < 20; i++) {
      await client.verifyCode('c');
      await client.validateToken('t');
    }
    expect(server.connections()).toBeLessThanOrEqual(2);
    expect(other.connections()).toBeLessThanOrEqual(2);
    await client.close();
    await other.close();
  });

  it('sockets are freed after errors of every kind (the pool does not leak)', async () => {
    const client = clientFor(2);
    const replies = [{ status: 500 }, { body: 'not json' }, { body: { wrong: true } }, { status: 401, body: '<html>' }];
    for (let i = 0; i < 40; i++) {
      server.reply(() => replies[i % replies.length] as object);
      await client.verifyCode('c').catch(() => undefined);
    }
    server.reply(() => ({}));
    // With 2 connections, a leaked (unconsumed) body would have stalled this long ago.
    await Promise.all(Array.from({ length: 20 }, () => client.verifyCode('c')));
    expect(server.connections()).toBeLessThanOrEqual(2);
    await client.close();
  });

  it('recovers after a reset connection', async () => {
    const client = clientFor();
    server.reply(() => ({ reset: true }));
    await expect(client.verifyCode('c')).rejects.toMatchObject({ code: 'NETWORK' });
    server.reply(() => ({}));
    await expect(client.verifyCode('c')).resolves.toMatchObject({ requestId: 'req-e-1' });
    await client.close();
  });

  it('close() waits for calls in flight, then refuses new ones', async () => {
    const client = clientFor();
    server.reply(() => ({ delayMs: 100 }));
    const inFlight = client.verifyCode('c');
    await client.close();
    await expect(inFlight).resolves.toMatchObject({ requestId: 'req-e-1' });
    await expect(client.verifyCode('c')).rejects.toMatchObject({ code: 'NETWORK' });
  });
});
