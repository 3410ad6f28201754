import type { SecureInfo } from '../wire/types.js';

/**
 * Risk scenarios a login can be given (by the inbox buttons, `?risk=` on a link, or
 * `issueToken({ risk })`). Each shapes the login's secureInfo; 'missing' means the secure SDK is
 * not integrated: validate-token has no secureInfo and secure-info answers `secure_info: {}`.
 */
export const RISK_SCENARIOS = ['clean', 'vpn', 'bot', 'emulator', 'tampering', 'incognito', 'missing'] as const;

export type RiskScenario = (typeof RISK_SCENARIOS)[number];

export function isRiskScenario(value: unknown): value is RiskScenario {
  return typeof value === 'string' && (RISK_SCENARIOS as readonly string[]).includes(value);
}

/** The clean baseline: nothing detected, high confidence. suspectScore uses Fingerprint's web weights. */
function cleanSignals(): SecureInfo {
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
    tampering: { result: false, anomalyScore: 0.02 },
    jailbroken: { result: false },
    clonedApp: { result: false },
    // Epoch: no reset known, which is what browsers always report.
    factoryReset: { time: '1970-01-01T00:00:00Z', timestamp: 0 },
    frida: { result: false },
    suspectScore: { result: 0 },
    privacySettings: { result: false },
    virtualMachine: { result: false },
    locationSpoofing: { result: false },
    developerTools: { result: false },
  };
}

function scenarioSignals(scenario: Exclude<RiskScenario, 'missing'>): SecureInfo {
  const signals = cleanSignals();
  switch (scenario) {
    case 'clean':
      break;
    case 'vpn':
      // The IP is a public VPN exit abroad while the browser's time zone stays Indian.
      signals.vpn = {
        result: true,
        originCountry: 'IN',
        originTimezone: 'Asia/Kolkata',
        methods: { timezoneMismatch: true, publicVPN: true, auxiliaryMobile: false, osMismatch: false },
      };
      signals.suspectScore = { result: 7 };
      break;
    case 'bot':
      signals.bot = { result: 'bad' };
      signals.suspectScore = { result: 7 };
      break;
    case 'emulator':
      signals.emulator = { result: true };
      signals.suspectScore = { result: 5 };
      break;
    case 'tampering':
      signals.tampering = { result: true, anomalyScore: 0.92 };
      signals.suspectScore = { result: 8 };
      break;
    case 'incognito':
      signals.incognito = true;
      signals.suspectScore = { result: 4 };
      break;
  }
  return signals;
}

/** validate-token's secureInfo lacks the members that only secure-info returns (spec 2.6). */
function withoutSecureInfoOnlyMembers(full: SecureInfo): SecureInfo {
  const { virtualMachine: _vm, locationSpoofing: _ls, developerTools: _dt, vpn, ...rest } = full;
  if (!vpn) return rest;
  const { originTimezone: _tz, methods, ...vpnRest } = vpn;
  const { auxiliaryMobile: _am, osMismatch: _om, ...methodsRest } = methods ?? {};
  return { ...rest, vpn: { ...vpnRest, methods: methodsRest } };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

// Built once: the signals do not depend on the login, and hot paths only serialize them.
const FULL = new Map<RiskScenario, SecureInfo>();
const TOKEN = new Map<RiskScenario, SecureInfo>();
for (const scenario of RISK_SCENARIOS) {
  if (scenario === 'missing') continue;
  const full = scenarioSignals(scenario);
  FULL.set(scenario, deepFreeze(full));
  TOKEN.set(scenario, deepFreeze(withoutSecureInfoOnlyMembers(full)));
}

/** secure_info of the secure-info call; `{}` for 'missing' (no signals collected). */
export function secureInfoResultSignals(scenario: RiskScenario): SecureInfo {
  return FULL.get(scenario) ?? {};
}

/** secureInfo of validate-token; `undefined` for 'missing' (the member is left out). */
export function tokenSecureInfo(scenario: RiskScenario): SecureInfo | undefined {
  return TOKEN.get(scenario);
}
