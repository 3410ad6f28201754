import { describe, expect, it } from 'vitest';
import { MagicLinkStrategy } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';

const base = {
  clientId: 'id',
  clientSecret: 'very-secret-value',
  callbackUrl: 'https://app.example.com/auth/callback',
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
    const s = new MagicLinkStrategy({ client, callbackUrl: base.callbackUrl }, verify);
    expect(s.client).toBe(client);
    await client.close();
  });

  it.each([
    ['callbackUrl', { callbackUrl: '/relative' }],
    ['callbackUrl', { callbackUrl: 'ftp://x.example' }],
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
      build({ callbackUrl: 'nope' })();
      expect.unreachable();
    } catch (err) {
      expect(String((err as Error).message)).not.toContain(base.clientSecret);
    }
  });
});

describe('one spelling of acronyms', () => {
  it.each([
    ['callbackURL', 'callbackUrl'],
    ['clientID', 'clientId'],
    ['authURL', 'authUrl'],
  ])('%s is refused with the spelling to use', async (spelt, name) => {
    const { MagicLinkStrategy } = await import('../../src/index.js');
    const options = { clientId: 'id', clientSecret: 'secret', callbackUrl: 'https://app.example.com/cb', [spelt]: 'x' };
    expect(() => new MagicLinkStrategy(options as never, async () => null)).toThrow(
      `MagicLinkStrategy: options.${spelt} is spelt ${name} here (acronyms are written as words)`,
    );
  });

  it('applies to the guards too', async () => {
    const { requireLowRisk } = await import('../../src/index.js');
    expect(() => requireLowRisk({ loginURL: '/login' } as never)).toThrow(
      'requireLowRisk(): options.loginURL is spelt loginUrl here',
    );
  });
});
