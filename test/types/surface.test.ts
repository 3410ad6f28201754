import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// What each entry point of the built package holds (run `npx tsup` first). Every value named
// here is a promise kept across versions: adding one is a decision, so the lists are spelt out.
const require = createRequire(import.meta.url);

const ROOT = [
  'DEFAULT_RISK_POLICY',
  'MagicLinkStrategy',
  'MemoryFlowStore',
  'OtplessError',
  'RedisFlowStore',
  'SendLimiter',
  'assessRisk',
  'botCheck',
  'channels',
  'isOtplessError',
  'magicLinkRoutes',
  'otplessFastify',
  'readLoginRecord',
  'requireIdentity',
  'requireLowRisk',
  'requireServiceSession',
  'sessionCompat',
];

const CLIENT = [
  'DEFAULT_AUTH_URL',
  'DEFAULT_USER_AUTH_URL',
  'ENDPOINTS',
  'MAGIC_LINK_CHANNELS',
  'OtplessApiError',
  'OtplessClient',
  'OtplessError',
  'OtplessInputError',
  'OtplessNetworkError',
  'OtplessResponseError',
  'OtplessStateError',
  'OtplessTimeoutError',
  'isOtplessError',
];

const EMULATOR = [
  'EMULATOR_DEFAULT_CLIENT',
  'EMULATOR_WHATSAPP_NUMBER',
  'QUIRK_NAMES',
  'RISK_SCENARIOS',
  'SERVICE_FAULT_ERRORS',
  'startEmulator',
];

const names = (mod: object) =>
  Object.keys(mod)
    .filter((k) => k !== 'default' && k !== 'module.exports')
    .sort();

describe('the package root', () => {
  it('holds at most 25 values: what an app writes', async () => {
    const esm = await import('passport-otpless');
    expect(names(esm)).toEqual(ROOT);
    expect(names(esm).length).toBeLessThanOrEqual(25);
    expect(names(require('passport-otpless') as object)).toEqual(ROOT);
  });

  it('keeps internal lists and helpers private', async () => {
    const esm: Record<string, unknown> = await import('passport-otpless');
    for (const internal of [
      'ENRICHMENTS',
      'CROSS_DEVICE_MODES',
      'RISK_ACTIONS',
      'SIGNAL_NAMES',
      'CHANNEL_NAMES',
      'compactSignals',
      'isSafeLocalPath',
      'LOGIN_RECORD_KEY',
      'OtplessClient',
    ]) {
      expect(esm[internal], internal).toBeUndefined();
    }
  });
});

describe('passport-otpless/client', () => {
  it('holds the typed client, its errors and the endpoint table, for import and require', async () => {
    const esm = await import('passport-otpless/client');
    expect(names(esm)).toEqual(CLIENT);
    expect(names(require('passport-otpless/client') as object)).toEqual(CLIENT);
  });

  it('shares its error classes with the root, so instanceof agrees', async () => {
    const [root, client] = await Promise.all([import('passport-otpless'), import('passport-otpless/client')]);
    expect(client.OtplessError).toBe(root.OtplessError);
    const err = new client.OtplessInputError('email', 'Enter an e-mail address.');
    expect(err).toBeInstanceOf(root.OtplessError);
    expect(root.isOtplessError(err, 'INVALID_INPUT')).toBe(true);
    // Class names survive bundling (tsup keepNames): what `console.error(err)` prints.
    expect(err.name).toBe('OtplessInputError');
    expect(client.OtplessInputError.name).toBe('OtplessInputError');
  });
});

describe('passport-otpless/emulator', () => {
  it('holds the emulator, for import and require', async () => {
    const esm = await import('passport-otpless/emulator');
    expect(names(esm)).toEqual(EMULATOR);
    expect(names(require('passport-otpless/emulator') as object)).toEqual(EMULATOR);
    expect(typeof esm.startEmulator).toBe('function');
  });
});

const NEST = ['IdentityGuard', 'LowRiskGuard', 'OtplessExceptionFilter', 'OtplessModule', 'OtplessMount'];

describe('passport-otpless/nest', () => {
  it('holds the NestJS module, its guards and its filter, for import and require', async () => {
    const esm = await import('passport-otpless/nest');
    expect(names(esm)).toEqual(NEST);
    expect(names(require('passport-otpless/nest') as object)).toEqual(NEST);
    expect(typeof esm.OtplessModule.forRoot).toBe('function');
  });
});
