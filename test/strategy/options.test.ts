import { describe, expect, it } from 'vitest';
import { MagicLinkStrategy, OtplessClient } from '../../src/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';

const base = {
  clientId: 'id',
  clientSecret: 'very-secret-value',
  callbackURL: 'https://app.example.com/auth/callback',
};
const verify = async () => ({ id: 'x' });

function build(options: Record<string, unknown>) {
  return () =>
    new MagicLinkStrategy(
      { ...base, ...options } as unknown as MagicLinkStrategyOptions & { passReqToCallback?: false },
      verify,
    );
}

describe('MagicLinkStrategy options', () => {
  it('is named magic-link unless told otherwise', async () => {
    const s = new MagicLinkStrategy(base, verify);
    expect(s.name).toBe('magic-link');
    expect(new MagicLinkStrategy({ ...base, name: 'otpless' }, verify).name).toBe('otpless');
    await s.client.close();
  });

  it('uses a given client', async () => {
    const client = new OtplessClient({ clientId: 'id', clientSecret: 'very-secret-value' });
    const s = new MagicLinkStrategy({ client, callbackURL: base.callbackURL }, verify);
    expect(s.client).toBe(client);
    await client.close();
  });

  it.each([
    ['callbackURL', { callbackURL: '/relative' }],
    ['callbackURL', { callbackURL: 'ftp://x.example' }],
    ['expiry', { expiry: 29 }],
    ['expiry', { expiry: 2_592_001 }],
    ['expiry', { expiry: 60.5 }],
    ['enrich', { enrich: ['profile'] }],
    ['enrich', { enrich: 'userInfo' }],
    ['crossDevice', { crossDevice: 'yes' }],
    ['confirm', { confirm: 1 }],
    ['passReqToCallback', { passReqToCallback: 'true' }],
    ['name', { name: '' }],
    ['client', { client: {} }],
    ['clientId', { clientId: '' }],
    ['clientSecret', { clientSecret: undefined }],
  ] as Array<[string, Record<string, unknown>]>)('throws a TypeError naming %s', (name, options) => {
    expect(build(options)).toThrow(TypeError);
    expect(build(options)).toThrow(new RegExp(name));
  });

  it('requires a verify function', () => {
    expect(() => new MagicLinkStrategy(base, undefined as never)).toThrow(/verify/);
  });

  it('never echoes the secret in an option error', () => {
    try {
      build({ callbackURL: 'nope' })();
      expect.unreachable();
    } catch (err) {
      expect(String((err as Error).message)).not.toContain(base.clientSecret);
    }
  });
});
