export { requireLowRisk } from './requireLowRisk.js';
export type { RequireLowRiskOptions, GuardVerdict, RiskAuditEvent, RiskHandler } from './requireLowRisk.js';
export { requireIdentity } from './requireIdentity.js';
export type { GuardOptions, GuardMiddleware } from './core.js';
export type { GuardRefusalCode } from '../errors/guardCodes.js';
