// Starting and closing: option checks, ports, clients, prompt close with keep-alive and delayed calls.
import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { EMULATOR_DEFAULT_CLIENT, startEmulator } from '../../src/emulator/index.js';
import { sendLink, validateToken } from './helpers.js';

describe('options', () => {
  it('defaults to one client and two listeners on 127.0.0.1', async () => {
    const emulator = await startEmulator({ quiet: true });
    try {
      expect(EMULATOR_DEFAULT_CLIENT).toEqual({
        clientId: 'emulator-client-id',
        clientSecret: 'emulator-client-secret',
      });
      expect(emulator.clients).toEqual([EMULATOR_DEFAULT_CLIENT]);
      expect(emulator.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emulator.userAuthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emulator.userAuthUrl).not.toBe(emulator.authUrl);
    } finally {
      await emulator.close();
    }
  });

  it('rejects bad options with a TypeError naming the option', async () => {
    await expect(startEmulator({ clients: [] })).rejects.toThrow(/clients/);
    await expect(startEmulator({ clients: [{ clientId: 'a', clientSecret: '' }] })).rejects.toThrow(/clientSecret/);
    await expect(
      startEmulator({
        clients: [
          { clientId: 'a', clientSecret: 'x' },
          { clientId: 'a', clientSecret: 'y' },
        ],
      }),
    ).rejects.toThrow(/twice/);
    await expect(startEmulator({ authPort: 70000 })).rejects.toThrow(/authPort/);
    await expect(startEmulator({ userAuthPort: -1 })).rejects.toThrow(/userAuthPort/);
    await expect(startEmulator({ baseDelayMs: -5 })).rejects.toThrow(/baseDelayMs/);
    await expect(startEmulator({ maxOutbox: 0 })).rejects.toThrow(/maxOutbox/);
    await expect(startEmulator({ maxLogins: Infinity })).rejects.toThrow(/maxLogins/);
    await expect(startEmulator({ tokenTtlMs: 0 })).rejects.toThrow(/tokenTtlMs/);
  });

  it('rejects a taken port and leaves nothing listening', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startEmulator({ quiet: true, userAuthPort: port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('rejects a negative advanceTime', async () => {
    const emulator = await startEmulator({ quiet: true });
    try {
      expect(() => emulator.advanceTime(-1)).toThrow(TypeError);
      const before = emulator.now();
      emulator.advanceTime(60_000);
      expect(emulator.now() - before).toBeGreaterThanOrEqual(60_000);
    } finally {
      await emulator.close();
    }
  });
});

describe('close', () => {
  // No stopwatch: each test holds something that would keep close() open far longer than the
  // test's own timeout (a half-sent request: Node's 60 s header limit; a call held 60 s).
  it('closes with idle keep-alive sockets and a half-sent request open, and is idempotent', async () => {
    const emulator = await startEmulator({ quiet: true });
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    const raw = connect(Number(new URL(emulator.authUrl).port), '127.0.0.1');
    try {
      for (let i = 0; i < 5; i += 1) {
        const response = await request(`${emulator.authUrl}/__emulator/outbox`, { dispatcher: agent });
        await response.body.text();
      }
      // One full request on the raw socket (so the server has surely taken the connection),
      // then the start of a second one: a busy connection, which server.close() alone waits for.
      let received = '';
      raw.setEncoding('utf8');
      raw.on('data', (chunk: string) => (received += chunk));
      raw.write('GET /__emulator/outbox HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      while (!/\r\n\r\n/.test(received)) await once(raw, 'data');
      raw.write('GET /__emulator/outbox HTTP/1.1\r\nHost: 127.0');
      const rawClosed = once(raw, 'close');

      await Promise.all([emulator.close(), emulator.close()]);
      await rawClosed;
      await expect(fetch(`${emulator.authUrl}/`)).rejects.toThrow();
      await expect(fetch(`${emulator.userAuthUrl}/`)).rejects.toThrow();
    } finally {
      raw.destroy();
      await agent.close();
    }
  });

  it('closes while a call is held by a long delay, and the held call fails', async () => {
    const emulator = await startEmulator({ quiet: true });
    emulator.fault({ path: '/auth/v1/validate/token', delayMs: 60_000 });
    // Close once the held call has reached the emulator (the server's own event, not a sleep).
    const port = Number(new URL(emulator.userAuthUrl).port);
    const arrived = new Promise<void>((resolve) => {
      const onStart = (message: unknown) => {
        const { server } = message as { server: { address(): { port: number } | string | null } };
        const address = server.address();
        if (typeof address === 'object' && address?.port === port) {
          diagnostics.unsubscribe('http.server.request.start', onStart);
          resolve();
        }
      };
      diagnostics.subscribe('http.server.request.start', onStart);
    });
    const pending = validateToken(emulator, 'x').catch((error: unknown) => error);
    await arrived;
    await emulator.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('concurrency', () => {
  it('serves many concurrent keep-alive calls correctly', async () => {
    const emulator = await startEmulator({ quiet: true });
    const agent = new Agent({ connections: 20 });
    try {
      const token = emulator.issueToken({ email: 'load@example.com' });
      const body = new URLSearchParams({
        token,
        client_id: EMULATOR_DEFAULT_CLIENT.clientId,
        client_secret: EMULATOR_DEFAULT_CLIENT.clientSecret,
      }).toString();
      const results = await Promise.all(
        Array.from({ length: 500 }, async () => {
          const response = await request(`${emulator.authUrl}/auth/userInfo`, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body,
          });
          return { status: response.statusCode, body: (await response.body.json()) as { email?: string } };
        }),
      );
      expect(results.every((result) => result.status === 200 && result.body.email === 'load@example.com')).toBe(true);
      expect((await sendLink(emulator, { email: 'after@example.com' })).status).toBe(200);
    } finally {
      await agent.close();
      await emulator.close();
    }
  });
});
