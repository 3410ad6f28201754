/**
 * `assessRisk`: the pure decision from risk signals to allow / challenge / block.
 * Each signal is judged on its own and the strictest action wins, so adding or worsening a
 * signal can never make the verdict milder.
 */
import { optionError } from '../options.js';
import { readRiskInput } from './compact.js';
import {
  SIGNAL_NAMES,
  strictestAction,
  validateRiskPolicy,
  type ResolvedRiskPolicy,
  type RiskAction,
  type RiskPolicy,
  type RiskSignal,
  type SignalName,
} from './policy.js';
import { MALFORMED, type SignalReadings, type SignalValues, type SignalsRead, type VpnReading } from './signals.js';

/** Why a verdict is not `allow`: for logs and hooks, never for the client. */
export interface RiskReason {
  signal: RiskSignal;
  action: RiskAction;
  /**
   * What triggered it: `bad`/`good`/`unknown` for bot, the vpn methods (`publicVPN+osMismatch`,
   * `privacyRelay`, `result`), `score>10`, `score<0.5`, `anomalyScore>0.5`, `result` (tampering),
   * `recent` (factoryReset); for `missing` and `malformed` the signal name, or `secureInfo`.
   */
  detail?: string;
}

export interface RiskVerdict {
  /** The strictest action the reasons ask for; `allow` when there are none. */
  action: RiskAction;
  /** Every signal that asked for more than `allow`, in `SIGNAL_NAMES` order. */
  reasons: RiskReason[];
  /** `suspectScore.result`, when it was there and well formed. */
  score?: number;
}

export interface AssessRiskOptions {
  /**
   * Epoch ms the factory-reset window is measured back from; default `Date.now()`, the one
   * ambient input. To judge stored signals as of when they were read, pass that time.
   */
  now?: number;
}

type Finding = { action: RiskAction; detail?: string } | undefined;
type Judge<K extends SignalName> = (value: SignalValues[K], policy: ResolvedRiskPolicy, now: number) => Finding;

/** A true/false signal asks for its action when true. */
function whenTrue(name: SignalName): (value: boolean, policy: ResolvedRiskPolicy) => Finding {
  return (value, policy) => (value ? { action: policy[name] } : undefined);
}

function judgeVpn(vpn: VpnReading, policy: ResolvedRiskPolicy): Finding {
  const relay = vpn.methods.includes('osMismatch');
  // Evidence beyond a privacy relay: another method, or a bare `result` nothing explains.
  const other = vpn.methods.some((method) => method !== 'osMismatch') || (vpn.result && !relay);
  if (!relay && !other) return undefined;
  // Both kinds at once ask for the stricter of the two, whatever the policy.
  const action = strictestAction(relay ? policy.privacyRelay : 'allow', other ? policy.vpn : 'allow');
  const detail = !other ? 'privacyRelay' : vpn.methods.length > 0 ? vpn.methods.join('+') : 'result';
  return { action, detail };
}

const JUDGES: { [K in SignalName]: Judge<K> } = {
  incognito: whenTrue('incognito'),
  confidence: (score, policy) =>
    score < policy.minConfidence ? { action: policy.confidence, detail: `score<${policy.minConfidence}` } : undefined,
  // Good (a known crawler) has no business logging in either: every value but notDetected counts.
  bot: (value, policy) => (value === 'notDetected' ? undefined : { action: policy.bot, detail: value }),
  rootApps: whenTrue('rootApps'),
  emulator: whenTrue('emulator'),
  vpn: judgeVpn,
  tampering: ({ result, anomalyScore }, policy) => {
    if (result) return { action: policy.tampering, detail: 'result' };
    if (anomalyScore !== undefined && anomalyScore > policy.maxAnomalyScore) {
      return { action: policy.tampering, detail: `anomalyScore>${policy.maxAnomalyScore}` };
    }
    return undefined;
  },
  jailbroken: whenTrue('jailbroken'),
  clonedApp: whenTrue('clonedApp'),
  // 0 is the 1970 epoch, "no reset"; a reset after `now` (clock skew) counts as recent.
  factoryReset: (at, policy, now) =>
    at > 0 && now - at < policy.factoryResetWithinMs ? { action: policy.factoryReset, detail: 'recent' } : undefined,
  frida: whenTrue('frida'),
  suspectScore: (score, policy) =>
    score > policy.maxSuspectScore
      ? { action: policy.suspectScore, detail: `score>${policy.maxSuspectScore}` }
      : undefined,
  privacySettings: whenTrue('privacySettings'),
  virtualMachine: whenTrue('virtualMachine'),
  locationSpoofing: whenTrue('locationSpoofing'),
  developerTools: whenTrue('developerTools'),
};

function judgeSignal<K extends SignalName>(
  name: K,
  reading: SignalReadings[K],
  policy: ResolvedRiskPolicy,
  now: number,
): RiskReason | undefined {
  if (reading === undefined) {
    return policy.requiredSignals.includes(name)
      ? { signal: 'missing', action: policy.missing, detail: name }
      : undefined;
  }
  if (reading === MALFORMED) return { signal: 'malformed', action: policy.malformed, detail: name };
  const finding = JUDGES[name](reading as SignalValues[K], policy, now);
  return finding && { signal: name, ...finding };
}

function decide(read: SignalsRead, policy: ResolvedRiskPolicy, now: number): RiskVerdict {
  const found: (RiskReason | undefined)[] =
    read.kind === 'present'
      ? SIGNAL_NAMES.map((name) => judgeSignal(name, read.signals[name], policy, now))
      : [{ signal: read.kind, action: policy[read.kind], detail: 'secureInfo' }];
  const reasons = found.filter((reason): reason is RiskReason => reason !== undefined && reason.action !== 'allow');
  const verdict: RiskVerdict = { action: strictestAction(...reasons.map((reason) => reason.action)), reasons };
  if (read.kind === 'present' && typeof read.signals.suspectScore === 'number')
    verdict.score = read.signals.suspectScore;
  return verdict;
}

/**
 * Judges the risk signals of a login: allow, challenge or block, with the reasons.
 *
 * `input` may be the secure info itself (validate-token's `secureInfo` or secure-info's
 * `secure_info`: same member names), the whole validate-token result or secure-info response
 * (the `secureInfo` or `secure_info` inside is used), or the output of `compactSignals`.
 * Any other value is judged too: pure and total, it never throws on its input, and missing or
 * malformed signals never read as clean (fail closed; see POLICY.md for the rules).
 *
 * @param policy merged over `DEFAULT_RISK_POLICY`; checked by `validateRiskPolicy`.
 * @throws TypeError only for an invalid `policy` or `options.now`, never for `input`.
 * @example
 * const verdict = assessRisk(result.secureInfo);
 * // { action: 'challenge', reasons: [{ signal: 'vpn', action: 'challenge', detail: 'publicVPN' }], score: 4 }
 * assessRisk(secureInfoResponse, { vpn: 'block', maxSuspectScore: 20 });
 */
export function assessRisk(input: unknown, policy?: RiskPolicy | null, options?: AssessRiskOptions): RiskVerdict {
  const resolved = validateRiskPolicy(policy);
  const now = options?.now ?? Date.now();
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw optionError('assessRisk', 'now', 'a finite number of epoch milliseconds');
  }
  return decide(readRiskInput(input), resolved, now);
}
