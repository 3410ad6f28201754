export { MagicLinkStrategy } from './MagicLinkStrategy.js';
export type { FlowStatusBody } from './MagicLinkStrategy.js';
export type { MagicLinkProfile, MagicLinkIdentity, MagicLinkRawAnswers, MagicLinkHandoff } from './profile.js';
export type {
  VerifyCallback,
  VerifyFunction,
  VerifyFunctionWithRequest,
  VerifiedUser,
  VerifyFailureInfo,
} from './verify.js';
