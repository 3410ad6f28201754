import { describe, expect, it } from 'vitest';
import { botCheck } from '../../src/botCheck/botCheck.js';
import type { BotCheckOptions } from '../../src/botCheck/botCheck.js';
import { resolveOptions } from '../../src/client/options.js';
import type { OtplessClientOptions } from '../../src/client/options.js';
import { checkSendLimits } from '../../src/limits/options.js';
import { checkStrategyOptions } from '../../src/login/optionTable.js';
import type { MagicLinkStrategyOptions } from '../../src/login/options.js';

// Where an option has always read `null` as "not given", its table entry still does (a config
// file or an ORM row writes null for an empty field); elsewhere `null` is refused, as before.
const credentials = { clientId: 'id', clientSecret: 'secret' };

describe('null in the options the tables check', () => {
  it("is the client's default host for authUrl and userAuthUrl", () => {
    const resolved = resolveOptions({
      ...credentials,
      authUrl: null,
      userAuthUrl: null,
    } as unknown as OtplessClientOptions);
    expect(resolved.auth).toEqual({ origin: 'https://auth.otpless.app', prefix: '' });
    expect(resolved.userAuth).toEqual({ origin: 'https://user-auth.otpless.app', prefix: '' });
  });

  it("is no enrichment for the strategy's enrich, and refused for its name", () => {
    const base = { ...credentials, callbackUrl: 'https://app.example.com/auth/callback' };
    const checked = checkStrategyOptions({ ...base, enrich: null } as unknown as MagicLinkStrategyOptions);
    expect([...checked.enrich]).toEqual([]);
    expect(() => checkStrategyOptions({ ...base, name: null } as unknown as MagicLinkStrategyOptions)).toThrow(
      'MagicLinkStrategy: options.name must be a non-empty string',
    );
  });

  it("is the send limits' default prefix", () => {
    expect(checkSendLimits('SendLimiter', { prefix: null }).prefix).toBe('otpless:limit:');
  });

  it("is botCheck()'s default timeout and score", () => {
    const check = botCheck({
      provider: 'turnstile',
      secret: 'secret',
      siteKey: 'site-key',
      timeoutMs: null,
      minScore: null,
    } as unknown as BotCheckOptions);
    expect(check.field).toBe('cf-turnstile-response');
    expect(() => botCheck({ provider: 'turnstile', secret: 'secret', siteKey: 'site-key', timeoutMs: 50 })).toThrow(
      'botCheck(): options.timeoutMs must be an integer of ms from 100 to 60000',
    );
  });
});
