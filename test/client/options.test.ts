import { describe, expect, it } from 'vitest';
import { isOtplessError } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { resolveOptions } from '../../src/client/options.js';
import { startCaptureServer } from './helpers/captureServer.js';
import { OK_BY_PATH, userInfoOk } from './helpers/fixtures.js';

const SECRET = 'opt-secret-value-123';
const ok = { clientId: 'id-1', clientSecret: SECRET };

function typeErrorOf(options: unknown): TypeError {
  try {
    new OtplessClient(options as never);
  } catch (err) {
    expect(err).toBeInstanceOf(TypeError);
    return err as TypeError;
  }
  throw new Error('expected a TypeError');
}

describe('OtplessClient options', () => {
  it('accepts the minimal options, closes idempotently, and refuses calls once closed', async () => {
    const client = new OtplessClient(ok);
    await expect(client.close()).resolves.toBeUndefined();
    await expect(client.close()).resolves.toBeUndefined(); // idempotent
    const err = await client.getUserInfo('a-token').catch((e: unknown) => e);
    expect(isOtplessError(err, 'NETWORK')).toBe(true);
    expect((err as Error).message).toMatch(/client is closed/);
  });

  it('fills in every documented default (README table, JSDoc of OtplessClientOptions)', () => {
    expect(resolveOptions(ok)).toEqual({
      clientId: 'id-1',
      clientSecret: SECRET,
      auth: { origin: 'https://auth.otpless.app', prefix: '' },
      userAuth: { origin: 'https://user-auth.otpless.app', prefix: '' },
      timeoutMs: 10_000,
      maxResponseBytes: 1024 * 1024,
      connections: 64,
    });
  });

  it('keeps a path prefix (without its trailing slash) and the given limits', () => {
    const resolved = resolveOptions({
      ...ok,
      authUrl: 'http://127.0.0.1:1/prefix/',
      userAuthUrl: 'https://example.com/a/b',
      timeoutMs: 500,
      maxResponseBytes: 1000,
      connections: 2,
    });
    expect(resolved).toMatchObject({
      auth: { origin: 'http://127.0.0.1:1', prefix: '/prefix' },
      userAuth: { origin: 'https://example.com', prefix: '/a/b' },
      timeoutMs: 500,
      maxResponseBytes: 1000,
      connections: 2,
    });
  });

  it.each([
    ['options', undefined],
    ['options', null],
    ['clientId', { clientSecret: SECRET }],
    ['clientId', { clientId: '', clientSecret: SECRET }],
    ['clientId', { clientId: 42, clientSecret: SECRET }],
    ['clientSecret', { clientId: 'id' }],
    ['clientSecret', { clientId: 'id', clientSecret: '' }],
    ['clientSecret', { clientId: 'id', clientSecret: `${SECRET}\r\nx-injected: 1` }],
    ['clientSecret', { clientId: 'id', clientSecret: `${SECRET} with space` }],
    ['authUrl', { ...ok, authUrl: 'not a url' }],
    ['authUrl', { ...ok, authUrl: 'ftp://auth.otpless.app' }],
    ['authUrl', { ...ok, authUrl: 'https://user:pw@auth.otpless.app' }],
    ['authUrl', { ...ok, authUrl: 'https://auth.otpless.app/?x=1' }],
    ['authUrl', { ...ok, authUrl: 'https://auth.otpless.app/#x' }],
    ['authUrl', { ...ok, authUrl: 42 }],
    ['userAuthUrl', { ...ok, userAuthUrl: '/relative' }],
    ['timeoutMs', { ...ok, timeoutMs: 0 }],
    ['timeoutMs', { ...ok, timeoutMs: -5 }],
    ['timeoutMs', { ...ok, timeoutMs: 1.5 }],
    ['timeoutMs', { ...ok, timeoutMs: Number.NaN }],
    ['timeoutMs', { ...ok, timeoutMs: Infinity }],
    ['timeoutMs', { ...ok, timeoutMs: '1000' }],
    ['timeoutMs', { ...ok, timeoutMs: 2 ** 31 }],
    ['maxResponseBytes', { ...ok, maxResponseBytes: 0 }],
    ['connections', { ...ok, connections: 0 }],
    ['connections', { ...ok, connections: 2.5 }],
  ])('rejects a bad %s with a TypeError naming it', (name, options) => {
    const err = typeErrorOf(options);
    expect(err.message).toContain(
      name === 'options' ? 'OtplessClient: options must be' : `OtplessClient: options.${name} must be`,
    );
    expect(err.message).not.toContain(SECRET);
  });

  it('uses an http URL with a path prefix and applies the custom limits on the wire', async () => {
    const server = await startCaptureServer();
    // Generous timeout: nothing in this part may time out, however busy the machine.
    const client = new OtplessClient({
      ...ok,
      authUrl: `${server.url}/prefix/`,
      userAuthUrl: `${server.url}/other`,
      timeoutMs: 30_000,
      maxResponseBytes: 1000,
      connections: 2,
    });
    try {
      // The prefix goes before each endpoint's path, on the host the endpoint belongs to.
      server.reply((req) => ({ body: OK_BY_PATH[req.path.replace(/^\/(prefix|other)/, '')] }));
      await expect(client.getUserInfo('tok-1')).resolves.toMatchObject({ email: userInfoOk.email });
      // Its full answer is larger than this client's 1000 bytes: only the path matters here.
      await client.getSecureInfo('tok-1').catch(() => undefined);
      expect(server.requests.map((r) => r.path)).toEqual(['/prefix/auth/userInfo', '/other/auth/v1/secure-info']);

      // maxResponseBytes: 1000 bytes are read, 1001 are not.
      const sized = (bytes: number) => {
        const body = JSON.stringify({ ...userInfoOk, pad: '' });
        return JSON.stringify({ ...userInfoOk, pad: 'x'.repeat(bytes - body.length) });
      };
      server.reply(() => ({ body: sized(1000) }));
      await expect(client.getUserInfo('tok-1')).resolves.toMatchObject({ email: userInfoOk.email });
      server.reply(() => ({ body: sized(1001) }));
      const tooLarge = await client.getUserInfo('tok-1').catch((e: unknown) => e);
      expect(isOtplessError(tooLarge, 'BAD_RESPONSE')).toBe(true);
      expect((tooLarge as Error).message).toContain('maxResponseBytes (1000)');

      // connections: a burst of 10 keep-alive calls to one host opens at most 2 sockets.
      server.reply(() => ({ delayMs: 30, body: userInfoOk }));
      const before = server.connections();
      await Promise.all(Array.from({ length: 10 }, () => client.getUserInfo('tok-1')));
      expect(server.connections() - before).toBeLessThanOrEqual(2);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('applies a custom timeoutMs: an answer held 8 s fails at 200 ms, not at the 10 s default', async () => {
    const server = await startCaptureServer();
    const client = new OtplessClient({ ...ok, authUrl: server.url, timeoutMs: 200 });
    try {
      // Held 8 s: far beyond 200 ms, yet before the 10 s default, so with the default the
      // answer would arrive and the call succeed. No wall-clock margin is asserted.
      server.reply(() => ({ delayMs: 8_000, body: userInfoOk }));
      const late = await client.getUserInfo('tok-1').catch((e: unknown) => e);
      expect(isOtplessError(late, 'TIMEOUT')).toBe(true);
      expect(late).toMatchObject({ timeoutMs: 200 });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
