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
  'OtplessRequestError',
  'OtplessSetupError',
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

const ERRORS = [
  'OtplessApiError',
  'OtplessError',
  'OtplessInputError',
  'OtplessNetworkError',
  'OtplessRequestError',
  'OtplessResponseError',
  'OtplessSetupError',
  'OtplessStateError',
  'OtplessTimeoutError',
  'isOtplessError',
];

const EMULATOR = [
  'EMULATOR_DEFAULT_CLIENT',
  'EMULATOR_SEND_LIMITS',
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
    expect(root.isOtplessError(err, 'INVALID_ARGUMENT')).toBe(true);
    // Class names survive bundling (tsup keepNames): what `console.error(err)` prints.
    expect(err.name).toBe('OtplessInputError');
    expect(client.OtplessInputError.name).toBe('OtplessInputError');
  });
});

describe('passport-otpless/errors', () => {
  it('holds every error class, for import and require, the same classes as the root and /client', async () => {
    const [esm, root, client] = await Promise.all([
      import('passport-otpless/errors'),
      import('passport-otpless'),
      import('passport-otpless/client'),
    ]);
    expect(names(esm)).toEqual(ERRORS);
    expect(names(require('passport-otpless/errors') as object)).toEqual(ERRORS);
    expect([esm.OtplessRequestError, esm.OtplessSetupError]).toEqual([
      root.OtplessRequestError,
      root.OtplessSetupError,
    ]);
    expect(esm.OtplessApiError).toBe(client.OtplessApiError);
  });

  it('answers instanceof for an error of the other build: the CommonJS copy and the ESM copy are two', async () => {
    const esm = await import('passport-otpless/errors');
    const cjs = require('passport-otpless/errors') as typeof esm;
    expect(cjs.OtplessRequestError).not.toBe(esm.OtplessRequestError);
    const fromCjs = [
      new cjs.OtplessInputError('email', 'Enter an e-mail address.'),
      new cjs.OtplessApiError({ endpoint: 'verifyCode', status: 401 }),
      new cjs.OtplessTimeoutError('verifyCode', 5),
      new cjs.OtplessNetworkError('verifyCode', 'unreachable'),
      new cjs.OtplessResponseError('verifyCode', 200, 'not JSON'),
      new cjs.OtplessStateError('verifyCode', 200, 'NOT_FOUND'),
      cjs.OtplessSetupError.missingSession(),
      new cjs.OtplessRequestError(429, 'RATE_LIMITED', 'Wait a minute.'),
    ];
    const classes = [
      esm.OtplessInputError,
      esm.OtplessApiError,
      esm.OtplessTimeoutError,
      esm.OtplessNetworkError,
      esm.OtplessResponseError,
      esm.OtplessStateError,
      esm.OtplessSetupError,
      esm.OtplessRequestError,
    ];
    // Each error is an instance of its own class of the other copy and of no other class.
    const matrix = fromCjs.map((err) => classes.map((cls) => err instanceof cls));
    expect(matrix).toEqual(classes.map((_, i) => classes.map((_, j) => i === j)));
    for (const err of fromCjs) {
      expect(err).toBeInstanceOf(esm.OtplessError);
      expect(esm.isOtplessError(err, err.code)).toBe(true);
    }
    // And the other way round.
    expect(new esm.OtplessTimeoutError('userInfo', 5)).toBeInstanceOf(cjs.OtplessTimeoutError);
    expect(new esm.OtplessTimeoutError('userInfo', 5)).not.toBeInstanceOf(cjs.OtplessApiError);
    expect(new Error('x')).not.toBeInstanceOf(esm.OtplessError);
    expect(Object.assign(new Error('x'), { code: 'TIMEOUT' })).not.toBeInstanceOf(esm.OtplessTimeoutError);
  });

  it("keeps an app's own subclass to the ordinary prototype check", async () => {
    const { OtplessRequestError } = await import('passport-otpless/errors');
    class AppError extends OtplessRequestError {}
    const plain = new OtplessRequestError(400, 'INVALID_INPUT', 'Check the address.');
    expect(plain).not.toBeInstanceOf(AppError);
    expect(new AppError(400, 'INVALID_INPUT', 'Check the address.')).toBeInstanceOf(AppError);
    expect(new AppError(400, 'INVALID_INPUT', 'Check the address.')).toBeInstanceOf(OtplessRequestError);
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
