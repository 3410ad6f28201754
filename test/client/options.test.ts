import { describe, expect, it } from 'vitest';
import { OtplessClient } from '../../src/index.js';

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
  it('accepts the minimal options and closes', async () => {
    const client = new OtplessClient(ok);
    await client.close();
    await client.close(); // idempotent
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

  it('accepts http URLs with a path prefix and custom limits', async () => {
    const client = new OtplessClient({
      ...ok,
      authUrl: 'http://127.0.0.1:1/prefix/',
      userAuthUrl: 'https://example.com',
      timeoutMs: 500,
      maxResponseBytes: 1000,
      connections: 2,
    });
    await client.close();
  });
});
