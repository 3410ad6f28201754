/**
 * Stale keep-alive sockets: a call whose pooled socket the server closed before any byte of the
 * request was sent goes through (one retry on another socket); a call the server may have read
 * is never sent twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import { startCaptureServer } from './helpers/captureServer.js';
import { type RawServer, startRawServer } from './helpers/rawServer.js';

const VERIFY = 'POST /auth/v1/verify/code HTTP/1.1';

let server: RawServer;
let client: OtplessClient;
beforeEach(async () => {
  server = await startRawServer();
  client = new OtplessClient({
    clientId: 'id',
    clientSecret: 'secret',
    authUrl: server.url,
    userAuthUrl: server.url,
    // Patient: nothing here may time out, however busy the machine.
    timeoutMs: 30_000,
    // One socket: the next call must take the pooled one (undici may open a second otherwise).
    connections: 1,
  });
  // One call first, so the next one finds a socket waiting in the pool.
  await client.verifyCode('warm-up');
});
afterEach(async () => {
  await client.close();
  await server.close();
});

/** Lets the pooled socket go idle, so undici checks it before its next use. */
const idle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a pooled socket the server reset before the request was written: retried once', () => {
  // Reset and call in the same turn: the client learns of the reset only once the request is
  // queued on that socket. Idle, undici finds it before writing (a `read` ECONNRESET, request
  // never started); right after the previous answer, undici writes unchecked and the kernel
  // refuses the write (a `write` ECONNRESET). Neither reached the server.
  it.each([
    ['idle in the pool', idle],
    ['right after the previous answer', async () => undefined],
  ])('%s: the call succeeds on a new connection, and the server saw it once', async (_name, wait) => {
    await wait();
    server.resetAll();
    const result = await client.verifyCode('code-1');

    expect(result.userDetails.token).toBe('tok-from-verify');
    expect(server.requests).toEqual([
      { connection: 1, line: VERIFY },
      { connection: 2, line: VERIFY },
    ]);
  });

  it('the same for every call, a GET with the credentials in the query included', async () => {
    for (const call of [
      () => client.sendMagicLink({ email: 'ada@example.com', redirectUri: 'https://app.example/cb' }),
      () => client.validateToken('tok-1'),
      () => client.getUserInfo('tok-1'),
    ]) {
      server.resetAll();
      await expect(call()).resolves.toBeTypeOf('object');
    }
    expect(server.connections()).toBe(4);
    expect(server.requests.map((r) => r.connection)).toEqual([1, 2, 3, 4]);
  });

  it('once only: when the retry cannot connect either, the call fails with that error', async () => {
    server.resetAll();
    server.stopListening();
    // Without the retry the error would be the reset (ECONNRESET); it is the refused connect.
    await expect(client.verifyCode('code-1')).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('ECONNREFUSED'),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('closed cleanly (FIN) while idle: undici itself moves the request to a new connection', async () => {
    await idle();
    server.endAll();
    await expect(client.verifyCode('code-1')).resolves.toMatchObject({ requestId: 'req-e-1' });
    expect(server.requests.map((r) => r.connection)).toEqual([1, 2]);
  });
});

describe('nothing else is retried', () => {
  it('a connection closed (FIN) after the server read the request: NETWORK, sent once', async () => {
    server.onRequest((r) => (r.connection === 1 ? 'close' : 'answer'));
    await expect(client.verifyCode('code-1')).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('UND_ERR_SOCKET'),
    });
    expect(server.requests).toEqual([
      { connection: 1, line: VERIFY },
      { connection: 1, line: VERIFY },
    ]);
  });

  it('a reset after the server read the request: NETWORK, and the request was sent once', async () => {
    server.onRequest(() => 'reset');
    await expect(client.verifyCode('code-1')).rejects.toMatchObject({
      code: 'NETWORK',
      message: expect.stringContaining('ECONNRESET'),
    });
    expect(server.requests).toEqual([
      { connection: 1, line: VERIFY },
      { connection: 1, line: VERIFY },
    ]);
    expect(server.connections()).toBe(1);
  });

  it('a 5xx, a timeout, or a reset on a fresh connection: each request sent once', async () => {
    const capture = await startCaptureServer();
    const other = new OtplessClient({
      clientId: 'id',
      clientSecret: 'secret',
      authUrl: capture.url,
      userAuthUrl: capture.url,
      timeoutMs: 30_000,
    });
    // The timeout: a 200 ms limit against an answer held 8 s, on a client of its own.
    const quick = new OtplessClient({ clientId: 'id', clientSecret: 'secret', authUrl: capture.url, timeoutMs: 200 });
    capture.reply(() => ({ status: 503 }));
    await expect(other.verifyCode('c')).rejects.toMatchObject({ code: 'API_ERROR', status: 503 });
    capture.reply(() => ({ delayMs: 8_000 }));
    await expect(quick.verifyCode('c')).rejects.toMatchObject({ code: 'TIMEOUT' });
    capture.reply(() => ({ reset: true }));
    await expect(other.verifyCode('c')).rejects.toMatchObject({ code: 'NETWORK' });
    expect(capture.requests).toHaveLength(3);
    await capture.close();
    await other.close();
    await quick.close();
  });
});
