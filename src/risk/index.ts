// The risk part: a pure decision from secure-info signals to allow / challenge / block.
export { assessRisk } from './assessRisk.js';
export type { AssessRiskOptions, RiskReason, RiskVerdict } from './assessRisk.js';
export { compactSignals } from './compact.js';
export type { CompactSignals } from './compact.js';
export {
  DEFAULT_RISK_POLICY,
  RISK_ACTIONS,
  RISK_SIGNALS,
  SIGNAL_NAMES,
  actionSeverity,
  isRiskAction,
  strictestAction,
  validateRiskPolicy,
} from './policy.js';
export type {
  ResolvedRiskPolicy,
  RiskAction,
  RiskPolicy,
  RiskSignal,
  RiskSignalActions,
  SignalName,
} from './policy.js';
