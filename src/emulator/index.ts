// passport-otpless/emulator: a local OTPless service for development and tests. Named exports only.
export { startEmulator } from './server.js';
export { EMULATOR_DEFAULT_CLIENT, EMULATOR_SEND_LIMITS, EMULATOR_WHATSAPP_NUMBER } from './config.js';
export { RISK_SCENARIOS } from './scenarios.js';
export { QUIRK_NAMES } from './quirks.js';
export type { RiskScenario } from './scenarios.js';
export type { ClockMode } from './clock.js';
export type { QuirkName } from './quirks.js';
export type { ServiceFaultError } from './errors.js';
export { SERVICE_FAULT_ERRORS } from './errors.js';
export type {
  Emulator,
  EmulatorClient,
  EmulatorOptions,
  EmulatorQuirks,
  FaultSpec,
  IssueTokenOptions,
  NextLoginOptions,
  OutboxEntry,
} from './types.js';
