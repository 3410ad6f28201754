// passport-otpless/emulator: a local OTPless service for development and tests. Named exports only.
export { startEmulator } from './server.js';
export { EMULATOR_DEFAULT_CLIENT } from './config.js';
export { RISK_SCENARIOS } from './scenarios.js';
export type { RiskScenario } from './scenarios.js';
export type { Emulator, EmulatorClient, EmulatorOptions, FaultSpec, IssueTokenOptions, OutboxEntry } from './types.js';
