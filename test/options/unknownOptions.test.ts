import { describe, expect, it } from 'vitest';
import {
  MagicLinkStrategy,
  MemoryFlowStore,
  RedisFlowStore,
  SendLimiter,
  requireIdentity,
  requireLowRisk,
  sessionCompat,
} from '../../src/index.js';
import type { RedisClientLike } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { nearestName } from '../../src/options.js';

// Every entry point refuses a key it does not know, naming the nearest right one: a typo must
// not pass in silence (`crossdevice: 'refuse'` used to build and leave the handoff on).
const base = { clientId: 'id', clientSecret: 'secret', callbackUrl: 'https://app.example.com/auth/callback' };
const verify = (_profile: unknown, done: (err: null, user: object) => void) => done(null, {});
const strategy = (options: object) => new MagicLinkStrategy({ ...base, ...options } as never, verify);

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
}

/** Passes the options as JavaScript would (no type check), to see what the constructor does. */
const loose = <T>(value: object) => value as T;

describe('a misspelt option throws a TypeError naming the nearest right name', () => {
  it('MagicLinkStrategy', () => {
    const err = caught(() => strategy({ crossdevice: 'refuse' }));
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toMatch(
      /^MagicLinkStrategy: options\.crossdevice is not an option \(did you mean crossDevice\?\)/,
    );
    expect(() => strategy({ enrichment: ['secureInfo'] })).toThrow(/options\.enrichment .*did you mean enrich\?/);
    expect(() => strategy({ maxAuthAge: 1000 })).toThrow(/did you mean maxAuthAgeMs\?/);
    // Nested options keep their path.
    expect(() => strategy({ limits: { perIP: false } })).toThrow(
      /options\.limits\.perIP .*did you mean limits\.perIp\?/,
    );
    expect(() => strategy({ riskPolicy: { vpm: 'block' } })).toThrow(/did you mean riskPolicy\.vpn\?/);
    expect(() => strategy({ crossDevice: 'refuse' })).not.toThrow();
  });

  it('MagicLinkStrategy forwards every client option it accepts (maxResponseBytes, connections)', () => {
    expect(() => strategy({ maxResponseBytes: 0 })).toThrow(/^OtplessClient: options\.maxResponseBytes must be/);
    expect(() => strategy({ connections: 0 })).toThrow(/^OtplessClient: options\.connections must be/);
    expect(() => strategy({ maxResponseBytes: 4096, connections: 2 })).not.toThrow();
  });

  it('send()', () => {
    const s = strategy({});
    expect(() => s.send(loose({ failureRedirct: '/login' }))).toThrow(
      /^send\(\): options\.failureRedirct is not an option \(did you mean failureRedirect\?\)/,
    );
    expect(() => s.send(loose({ emailFeild: 'mail' }))).toThrow(/did you mean emailField\?/);
    expect(() => s.send({ failureRedirect: '/login', emailField: 'mail' })).not.toThrow();
  });

  it('requireLowRisk() and requireIdentity()', () => {
    expect(() => requireLowRisk(loose({ observeonly: true }))).toThrow(
      /^requireLowRisk\(\): options\.observeonly is not an option \(did you mean observeOnly\?\)/,
    );
    expect(() => requireLowRisk(loose({ loginUrI: '/login' }))).toThrow(/did you mean loginUrl\?/);
    expect(() => requireIdentity('EMAIL', loose({ loginurl: '/login' }))).toThrow(
      /^requireIdentity\(\): options\.loginurl is not an option \(did you mean loginUrl\?\)/,
    );
    expect(() => requireIdentity('EMAIL', { loginUrl: '/login' })).not.toThrow();
  });

  it('the stores', () => {
    expect(() => new MemoryFlowStore(loose({ maxEntrie: 10 }))).toThrow(
      /^MemoryFlowStore: options\.maxEntrie is not an option \(did you mean maxEntries\?\)/,
    );
    const client = loose<RedisClientLike>({});
    expect(() => new RedisFlowStore(loose({ client, prefx: 'app:' }))).toThrow(
      /^RedisFlowStore: options\.prefx is not an option \(did you mean prefix\?\)/,
    );
  });

  it('SendLimiter and sessionCompat()', () => {
    expect(() => new SendLimiter(loose({ perDestinaton: false }))).toThrow(/did you mean perDestination\?/);
    expect(() => sessionCompat(loose({ secrets: ['a'.repeat(32)] }))).toThrow(
      /^sessionCompat\(\): options\.secrets is not an option \(did you mean secret\?\)/,
    );
  });

  it('OtplessClient', () => {
    expect(() => new OtplessClient(loose({ clientId: 'id', clientSecret: 'secret', timeout: 5 }))).toThrow(
      /^OtplessClient: options\.timeout is not an option \(did you mean timeoutMs\?\)/,
    );
  });

  it('startEmulator(), and its quirks', async () => {
    await expect(startEmulator(loose({ clok: 'manual', quiet: true }))).rejects.toThrow(
      /^startEmulator: options\.clok is not an option \(did you mean clock\?\)/,
    );
    await expect(startEmulator({ quiet: true, quirks: loose({ errorWith2OO: true }) })).rejects.toThrow(
      /unknown quirk "errorWith2OO" \(did you mean errorWith200\?\)/,
    );
  });

  it('names no option when none is close, and never repeats a long value', () => {
    expect(nearestName('somethingElse', ['crossDevice', 'enrich'])).toBeUndefined();
    expect(nearestName('CALLBACKURL', ['callbackUrl'])).toBe('callbackUrl');
    expect(() => strategy({ zzz: 1 })).toThrow(/options\.zzz is not an option; the options are clientId, /);
  });
});
