/**
 * The risk policy: actions, signal names, the default policy and its validation.
 * The reason behind every default is in POLICY.md beside this file.
 */
import { optionError, unknownOptionError } from '../options.js';

/** What a login should lead to, mildest first. */
export const RISK_ACTIONS = ['allow', 'challenge', 'block'] as const;
export type RiskAction = (typeof RISK_ACTIONS)[number];

/** The members of `SecureInfo` that `assessRisk` reads, in the order its reasons are listed. */
export const SIGNAL_NAMES = [
  'incognito',
  'confidence',
  'bot',
  'rootApps',
  'emulator',
  'vpn',
  'tampering',
  'jailbroken',
  'clonedApp',
  'factoryReset',
  'frida',
  'suspectScore',
  'privacySettings',
  'virtualMachine',
  'locationSpoofing',
  'developerTools',
] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

/** What a reason can be about: one signal, or signals that are `missing` or `malformed`. */
export const RISK_SIGNALS = [...SIGNAL_NAMES, 'missing', 'malformed'] as const;
export type RiskSignal = (typeof RISK_SIGNALS)[number];

/** The action taken when a signal asks for more than `allow`. */
export type RiskSignalActions = { [S in RiskSignal]?: RiskAction };

/**
 * Options of `assessRisk`; every member is optional and merged over `DEFAULT_RISK_POLICY`.
 * `missing` applies when no signals came at all, or a signal of `requiredSignals` is absent;
 * `malformed` when the secure info, or one signal in it, has the wrong shape or type.
 */
export interface RiskPolicy extends RiskSignalActions {
  /** A VPN flagged by `osMismatch` alone: typical of privacy relays (Apple Private Relay). */
  privacyRelay?: RiskAction;
  /** `suspectScore.result` above this asks for the `suspectScore` action. */
  maxSuspectScore?: number;
  /** `confidence.score` below this asks for the `confidence` action. 0 disables it. */
  minConfidence?: number;
  /** `tampering.anomalyScore` above this asks for the `tampering` action. 1 disables it. */
  maxAnomalyScore?: number;
  /** A factory reset less than this many ms before `now` asks for the `factoryReset` action. */
  factoryResetWithinMs?: number;
  /** Signals whose absence counts as `missing` (others may be absent, e.g. on another platform). */
  requiredSignals?: readonly SignalName[];
}

/** A policy with every option set, as `validateRiskPolicy` returns it. */
export type ResolvedRiskPolicy = Readonly<Required<RiskPolicy>>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The defaults; POLICY.md gives the reason for each. */
export const DEFAULT_RISK_POLICY: ResolvedRiskPolicy = Object.freeze({
  bot: 'block',
  tampering: 'block',
  frida: 'block',
  clonedApp: 'block',
  emulator: 'block',
  vpn: 'challenge',
  privacyRelay: 'allow',
  virtualMachine: 'challenge',
  rootApps: 'challenge',
  jailbroken: 'challenge',
  developerTools: 'challenge',
  locationSpoofing: 'challenge',
  factoryReset: 'challenge',
  suspectScore: 'challenge',
  confidence: 'challenge',
  privacySettings: 'allow',
  incognito: 'allow',
  missing: 'block',
  malformed: 'block',
  maxSuspectScore: 10,
  minConfidence: 0.5,
  maxAnomalyScore: 0.5,
  factoryResetWithinMs: 7 * DAY_MS,
  requiredSignals: Object.freeze(['bot', 'vpn', 'tampering'] as const),
});

/** `true` for `'allow'`, `'challenge'` and `'block'`. */
export function isRiskAction(value: unknown): value is RiskAction {
  return (RISK_ACTIONS as readonly unknown[]).includes(value);
}

/** 0 for allow, 1 for challenge, 2 for block: compare actions by it. */
export function actionSeverity(action: RiskAction): number {
  return RISK_ACTIONS.indexOf(action);
}

/**
 * The strictest of the actions, `'allow'` when there are none.
 *
 * @example strictestAction('allow', 'block', 'challenge') // 'block'
 */
export function strictestAction(...actions: RiskAction[]): RiskAction {
  let strictest: RiskAction = 'allow';
  for (const action of actions) {
    if (actionSeverity(action) > actionSeverity(strictest)) strictest = action;
  }
  return strictest;
}

const ACTION_OPTIONS: ReadonlySet<string> = new Set([...RISK_SIGNALS, 'privacyRelay']);

/** Inclusive ranges of the numeric options; all must be finite. */
const THRESHOLD_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  maxSuspectScore: [0, Number.MAX_VALUE],
  minConfidence: [0, 1],
  maxAnomalyScore: [0, 1],
  factoryResetWithinMs: [0, Number.MAX_VALUE],
};

/**
 * Checks a policy and merges it over `DEFAULT_RISK_POLICY`. Call it when a route is set up:
 * a mistake in a policy throws there, naming the option, instead of misjudging logins later.
 * Options set to `undefined` keep their default.
 *
 * @throws TypeError on an unknown option, an action other than allow/challenge/block, a
 *   threshold that is not a finite number in its range, or an unknown name in `requiredSignals`.
 * @example
 * const policy = validateRiskPolicy({ vpn: 'block', maxSuspectScore: 20 });
 * validateRiskPolicy({ vpn: 'deny' }); // TypeError: validateRiskPolicy: options.vpn must be 'allow', ...
 */
export function validateRiskPolicy(policy?: RiskPolicy | null): ResolvedRiskPolicy {
  return checkRiskPolicy(policy, 'validateRiskPolicy');
}

/**
 * `validateRiskPolicy` for an owner that takes a policy as one of its options (`riskPolicy` of
 * the strategy, `policy` of a guard): errors name the option as the caller wrote it.
 * @internal
 */
export function checkRiskPolicy(
  policy: RiskPolicy | null | undefined,
  owner: string,
  name?: string,
): ResolvedRiskPolicy {
  if (policy === undefined || policy === null) return DEFAULT_RISK_POLICY;
  // A guard resolves its policy once and hands it to assessRisk on every request: a policy
  // this function made (frozen, so unchanged since) is returned as it is, not checked again.
  if (RESOLVED.has(policy)) return policy as ResolvedRiskPolicy;
  if (typeof policy !== 'object' || Array.isArray(policy)) {
    if (name === undefined) throw new TypeError(`${owner}: the policy must be an object such as { vpn: 'block' }`);
    throw optionError(owner, name, "an object such as { vpn: 'block' }");
  }
  const known = [...ACTION_OPTIONS, ...Object.keys(THRESHOLD_RANGES), 'requiredSignals'];
  const resolved: Record<string, unknown> = { ...DEFAULT_RISK_POLICY };
  for (const [key, value] of Object.entries(policy)) {
    if (value === undefined) continue;
    const option = name === undefined ? key : `${name}.${key}`;
    const range = Object.hasOwn(THRESHOLD_RANGES, key) ? THRESHOLD_RANGES[key] : undefined;
    if (ACTION_OPTIONS.has(key)) {
      if (!isRiskAction(value)) throw optionError(owner, option, "'allow', 'challenge' or 'block'");
      resolved[key] = value;
    } else if (range) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < range[0] || value > range[1]) {
        const bounds = range[1] === Number.MAX_VALUE ? `>= ${range[0]}` : `from ${range[0]} to ${range[1]}`;
        throw optionError(owner, option, `a finite number ${bounds}`);
      }
      resolved[key] = value;
    } else if (key === 'requiredSignals') {
      resolved[key] = checkSignalNames(value, owner, option);
    } else {
      throw unknownOptionError(owner, option, known);
    }
  }
  const frozen = Object.freeze(resolved) as ResolvedRiskPolicy;
  RESOLVED.add(frozen);
  return frozen;
}

/** Policies `checkRiskPolicy` returned: complete and frozen. */
const RESOLVED = new WeakSet<object>([DEFAULT_RISK_POLICY]);

function checkSignalNames(value: unknown, owner: string, option: string): readonly SignalName[] {
  const expected = `an array of signal names from: ${SIGNAL_NAMES.join(', ')}`;
  if (!Array.isArray(value)) throw optionError(owner, option, expected);
  for (const name of value) {
    if (!(SIGNAL_NAMES as readonly unknown[]).includes(name)) throw optionError(owner, option, expected);
  }
  return Object.freeze([...(value as SignalName[])]);
}
