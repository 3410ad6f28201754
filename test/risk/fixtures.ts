// Secure-info fixtures and fast-check arbitraries shared by the risk tests.
import fc from 'fast-check';
import { RISK_ACTIONS, SIGNAL_NAMES, type RiskPolicy, type SignalName } from '../../src/risk/index.js';
import type { SecureInfo, SecureInfoResult, TokenValidationResult } from '../../src/wire/types.js';

/** A fixed "now" for every test: 2026-11-22T10:00:00Z. */
export const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Every member of the secure-info variant, all clean (what a desktop browser sends). */
export function cleanSecureInfo(): SecureInfo {
  return {
    incognito: false,
    confidence: { score: 0.99, revision: 'v1.1' },
    bot: { result: 'notDetected' },
    rootApps: { result: false },
    emulator: { result: false },
    vpn: {
      result: false,
      originCountry: 'IN',
      originTimezone: 'Asia/Kolkata',
      methods: { timezoneMismatch: false, publicVPN: false, auxiliaryMobile: false, osMismatch: false },
    },
    tampering: { result: false, anomalyScore: 0.0123 },
    jailbroken: { result: false },
    clonedApp: { result: false },
    factoryReset: { time: '1970-01-01T00:00:00Z', timestamp: 0 },
    frida: { result: false },
    suspectScore: { result: 0 },
    privacySettings: { result: false },
    virtualMachine: { result: false },
    locationSpoofing: { result: false },
    developerTools: { result: false },
  };
}

/** A clean secure info with some members replaced; `undefined` deletes the member. */
export function secureInfoWith(changes: Record<string, unknown>): Record<string, unknown> {
  const info: Record<string, unknown> = { ...cleanSecureInfo() };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete info[key];
    else info[key] = value;
  }
  return info;
}

/** The secure-info response (spec 4.5) around a secure info. */
export function secureInfoResponse(info: unknown): SecureInfoResult {
  return {
    status: 'SUCCESS',
    secure_info: info as SecureInfo,
    network_info: { ip: '203.0.113.7', timezone: 'Asia/Kolkata' },
    device_info: {
      userAgent: 'Mozilla/5.0',
      platform: 'MacIntel',
      vendor: 'Google Inc.',
      language: 'en',
      cookieEnabled: true,
      screenWidth: 1440,
      screenHeight: 900,
      screenColorDepth: 24,
      devicePixelRatio: 2,
    },
  };
}

/** The validate-token result (spec 2.7) around a secure info. */
export function tokenResult(info: unknown): TokenValidationResult {
  const { secure_info: _drop, network_info: network, device_info: deviceInfo } = secureInfoResponse(info);
  return {
    token: 'tok-1',
    status: 'SUCCESS',
    userId: 'user-1',
    timestamp: new Date(NOW).toISOString(),
    identities: [],
    network,
    deviceInfo,
    secureInfo: info as SecureInfo,
  };
}

/** An object whose every read by name throws (symbol reads pass, for fast-check's own probes). */
export function throwingObject(): object {
  const boom = (key: string | symbol) => {
    if (typeof key === 'string') throw new Error('boom');
    return undefined;
  };
  return new Proxy(
    {},
    {
      get: (_target, key) => boom(key),
      has: (_target, key) => Boolean(boom(key)),
      getOwnPropertyDescriptor: (_target, key) => boom(key) as undefined,
      ownKeys() {
        throw new Error('boom');
      },
    },
  );
}

/** A plain object whose `key` is a getter that throws. */
export function throwingGetter(key: string, base: object = {}): object {
  return Object.defineProperty({ ...base }, key, {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
}

// ---------------------------------------------------------------- arbitraries

const unit = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.5, 1, 0.4999999, 0.5000001));
const flagResult = fc.record({ result: fc.boolean() });
const optionalFlag = fc.option(fc.boolean(), { nil: undefined });
const isoTime = fc.integer({ min: 0, max: NOW + DAY_MS }).map((ms) => new Date(ms).toISOString());
const seconds = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: Math.floor((NOW + DAY_MS) / 1000) }));

/** A well-formed value of each signal, numbers weighted toward the default thresholds. */
export const validSignal: { [K in SignalName]: fc.Arbitrary<unknown> } = {
  incognito: fc.boolean(),
  confidence: fc.record({ score: unit, revision: fc.string() }, { requiredKeys: ['score'] }),
  bot: fc.record({ result: fc.oneof(fc.constantFrom('notDetected', 'good', 'bad'), fc.string()) }),
  rootApps: flagResult,
  emulator: flagResult,
  vpn: fc.record(
    {
      result: fc.boolean(),
      originCountry: fc.string(),
      methods: fc.record(
        {
          timezoneMismatch: optionalFlag,
          publicVPN: optionalFlag,
          auxiliaryMobile: optionalFlag,
          osMismatch: optionalFlag,
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['result'] },
  ),
  tampering: fc.record({ result: fc.boolean(), anomalyScore: unit }, { requiredKeys: ['result'] }),
  jailbroken: flagResult,
  clonedApp: flagResult,
  factoryReset: fc.oneof(
    fc.constant({ time: '1970-01-01T00:00:00Z', timestamp: 0 }),
    fc.record({ time: isoTime }),
    fc.record({ timestamp: seconds }),
    fc.record({ time: isoTime, timestamp: seconds }),
  ),
  frida: flagResult,
  suspectScore: fc.record({ result: fc.oneof(fc.nat(30), fc.double({ min: 0, max: 100, noNaN: true })) }),
  privacySettings: flagResult,
  virtualMachine: flagResult,
  locationSpoofing: flagResult,
  developerTools: flagResult,
};

/** Values of the wrong type, whatever the signal (true/false is right for incognito alone). */
const wrongType = fc.oneof(fc.string(), fc.integer(), fc.constant([]), fc.constant(Number.NaN));
const notBoolean = fc.oneof(wrongType, fc.constant({}));
const badNumber = fc.oneof(
  fc.constantFrom(-1, -Number.MIN_VALUE, 1.0000001, Number.NaN, Number.POSITIVE_INFINITY, '0.5', true),
  fc.double({ min: 1.0001, max: 1e9, noNaN: true }),
);
const badFlagResult = fc.oneof(
  fc.constant({}),
  notBoolean.map((result) => ({ result })),
  wrongType,
);

/** A malformed value of each signal: present, but not readable as the signal. */
export const malformedSignal: { [K in SignalName]: fc.Arbitrary<unknown> } = {
  incognito: notBoolean,
  confidence: fc.oneof(
    fc.constant({}),
    badNumber.map((score) => ({ score })),
    wrongType,
  ),
  bot: fc.oneof(
    fc.constant({}),
    fc.oneof(fc.integer(), fc.boolean(), fc.constant({})).map((result) => ({ result })),
    wrongType,
  ),
  rootApps: badFlagResult,
  emulator: badFlagResult,
  vpn: fc.oneof(
    badFlagResult,
    fc.constant({ result: true, methods: 'publicVPN' }),
    notBoolean.map((publicVPN) => ({ result: false, methods: { publicVPN } })),
  ),
  tampering: fc.oneof(
    badFlagResult,
    badNumber.map((anomalyScore) => ({ result: false, anomalyScore })),
  ),
  jailbroken: badFlagResult,
  clonedApp: badFlagResult,
  factoryReset: fc.oneof(
    fc.constant({}),
    fc.constantFrom('yesterday', '1', '2026-11-22', '2026-13-01T00:00:00Z', 12).map((time) => ({ time })),
    fc.constantFrom(-1, Number.NaN, 1e306, '0').map((timestamp) => ({ timestamp })),
    wrongType,
  ),
  frida: badFlagResult,
  suspectScore: fc.oneof(
    fc.constant({}),
    fc.constantFrom(-1, Number.NaN, Number.POSITIVE_INFINITY, '3').map((result) => ({ result })),
    wrongType,
  ),
  privacySettings: badFlagResult,
  virtualMachine: badFlagResult,
  locationSpoofing: badFlagResult,
  developerTools: badFlagResult,
};

const throwing = fc.oneof(
  fc.constant(null).map(() => throwingObject()),
  fc.constant(null).map(() => throwingGetter('result')),
);

function signalsRecord(value: (name: SignalName) => fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(SIGNAL_NAMES.map((name) => [name, value(name)])) as Record<
    SignalName,
    fc.Arbitrary<unknown>
  >;
  return fc.record(model, { requiredKeys: [] });
}

/** Well-formed secure infos: each signal well formed or absent. */
export const validSecureInfo = signalsRecord((name) => validSignal[name]);

/** Well-formed secure infos with every signal present. */
export const fullSecureInfo = fc.record(
  Object.fromEntries(SIGNAL_NAMES.map((name) => [name, validSignal[name]])) as Record<
    SignalName,
    fc.Arbitrary<unknown>
  >,
);

/** Anything shaped like a secure info: each signal valid, malformed, throwing, null or absent. */
export const secureInfoLike = fc
  .tuple(
    signalsRecord((name) =>
      fc.oneof(
        { weight: 4, arbitrary: validSignal[name] },
        { weight: 2, arbitrary: malformedSignal[name] },
        { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
        { weight: 1, arbitrary: throwing },
      ),
    ),
    fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 }),
  )
  .map(([signals, extra]) => ({ ...extra, ...signals }));

/** A secure info as given to assessRisk: bare, in a secure-info response, or in a token result. */
export function wrapped<T>(info: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(info, info.map(secureInfoResponse), info.map(tokenResult));
}

/** Any valid policy. */
export const anyPolicy: fc.Arbitrary<RiskPolicy> = fc.record(
  {
    ...Object.fromEntries(
      [...SIGNAL_NAMES, 'missing', 'malformed', 'privacyRelay'].map((key) => [key, fc.constantFrom(...RISK_ACTIONS)]),
    ),
    maxSuspectScore: fc.oneof(fc.nat(30), fc.double({ min: 0, max: 100, noNaN: true })),
    minConfidence: unit,
    maxAnomalyScore: unit,
    factoryResetWithinMs: fc.oneof(fc.constantFrom(0, DAY_MS, 7 * DAY_MS), fc.nat(60 * DAY_MS)),
    requiredSignals: fc.subarray([...SIGNAL_NAMES]),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<RiskPolicy>;
