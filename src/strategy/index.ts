export { MagicLinkStrategy } from './MagicLinkStrategy.js';
export { sessionCompat } from './sessionCompat.js';
export { OtplessSetupError } from './setupError.js';
export { OtplessRequestError } from './requestError.js';
export type { RequestFailureReason } from './requestError.js';
export { CALLBACK_FAILURES } from './failures.js';
export type { CallbackFailure, CallbackFailureCode } from './failures.js';
export { readLoginRecord, LOGIN_RECORD_KEY } from './loginRecord.js';
export type { LoginRecord, LoginRiskRecord } from './loginRecord.js';
export { isSafeLocalPath } from './safeRedirect.js';
export { ENRICHMENTS } from './options.js';
export type { MagicLinkStrategyOptions, Enrichment } from './options.js';
export type { SendOptions, SendMiddleware } from './send.js';
export type { MagicLinkProfile, MagicLinkIdentity, MagicLinkRawAnswers } from './profile.js';
export type {
  VerifyCallback,
  VerifyFunction,
  VerifyFunctionWithRequest,
  VerifiedUser,
  VerifyFailureInfo,
} from './verify.js';
export type { HttpRequest, SessionLike } from './http.js';
