import { createRequire } from 'node:module';
import passport from 'passport';
import { Strategy } from 'passport-strategy';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { MagicLinkStrategy } from '../../src/index.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';

const options = {
  clientId: 'base-client',
  clientSecret: 'base-secret',
  callbackUrl: 'https://app.example.com/auth/callback',
};
const verify = async () => ({ id: 'u1' });

describe('MagicLinkStrategy is a passport-strategy Strategy', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('is an instance of passport-strategy Strategy and of passport.Strategy', async () => {
    const strategy = new MagicLinkStrategy(options, verify);
    expect(strategy).toBeInstanceOf(Strategy);
    expect(strategy).toBeInstanceOf(passport.Strategy);
    expect(strategy.name).toBe('magic-link');
    await strategy.client.close();
  });

  it('is one in the built package too, from import and from require', async () => {
    const esm = await import('passport-otpless');
    const cjs = createRequire(import.meta.url)('passport-otpless') as typeof esm;
    for (const { MagicLinkStrategy: Built } of [esm, cjs]) {
      const strategy = new Built(options, verify);
      expect(strategy).toBeInstanceOf(Strategy);
      await strategy.client.close();
    }
  });

  it('fits the types of passport-strategy and of passport.use()', () => {
    // The declarations need neither @types/passport-strategy nor Express's types, yet a
    // MagicLinkStrategy is assignable where those types ask for a Strategy.
    expectTypeOf<MagicLinkStrategy>().toExtend<Strategy>();
    expectTypeOf<MagicLinkStrategy>().toExtend<passport.Strategy>();
    expectTypeOf<MagicLinkStrategy['fail']>().toBeCallableWith({ code: 'X' }, 403);
    expectTypeOf<MagicLinkStrategy['fail']>().toBeCallableWith(401);
  });
});
