export { MagicLinkStrategy } from './MagicLinkStrategy.js';
export type { FlowStatusBody } from './MagicLinkStrategy.js';
export { CALLBACK_FAILURES } from './failures.js';
export type { CallbackFailure, CallbackFailureCode } from './failures.js';
export { ENRICHMENTS } from './options.js';
export { CROSS_DEVICE_MODES } from './options.js';
export type { MagicLinkStrategyOptions, Enrichment, CrossDeviceMode } from './options.js';
export type { SendOptions, SendMiddleware } from '../routes/send.js';
export type { MagicLinkProfile, MagicLinkIdentity, MagicLinkRawAnswers, MagicLinkHandoff } from './profile.js';
export type {
  VerifyCallback,
  VerifyFunction,
  VerifyFunctionWithRequest,
  VerifiedUser,
  VerifyFailureInfo,
} from './verify.js';
