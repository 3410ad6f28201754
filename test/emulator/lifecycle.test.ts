// Starting and closing: option checks, ports, clients, prompt close with keep-alive and delayed calls.
import { createServer } from 'node:net';
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
  it('closes promptly with idle keep-alive sockets open, and is idempotent', async () => {
    const emulator = await startEmulator({ quiet: true });
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    try {
      for (let i = 0; i < 5; i += 1) {
        const response = await request(`${emulator.authUrl}/__emulator/outbox`, { dispatcher: agent });
        await response.body.text();
      }
      const started = performance.now();
      await Promise.all([emulator.close(), emulator.close()]);
      expect(performance.now() - started).toBeLessThan(1000);
      await expect(fetch(`${emulator.authUrl}/`)).rejects.toThrow();
      await expect(fetch(`${emulator.userAuthUrl}/`)).rejects.toThrow();
    } finally {
      await agent.close();
    }
  });

  it('closes promptly while a call is held by a long delay', async () => {
    const emulator = await startEmulator({ quiet: true });
    emulator.fault({ path: '/auth/v1/validate/token', delayMs: 60_000 });
    const pending = validateToken(emulator, 'x').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await emulator.close();
    expect(performance.now() - started).toBeLessThan(1000);
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
