// The public surface of passport-otpless: what an app writes, named exports only.
// The typed client, its errors and the wire types are at `passport-otpless/client`; the local
// service at `passport-otpless/emulator`. Every name here is a promise kept across versions:
// test/types/surface.test.ts counts them.

// The strategy, and the types its options, verify callback and failures take and return.
export { MagicLinkStrategy } from './strategy/index.js';
export type { CallbackFailure, CallbackFailureCode } from './errors/callbackCodes.js';
export type { MagicLinkStrategyOptions, Enrichment, CrossDeviceMode } from './login/options.js';
export type { TokenVerifiedAtOption } from './login/tokenTimes.js';
export type { SendOptions, SendMiddleware } from './routes/send.js';
export type {
  FlowStatusBody,
  MagicLinkProfile,
  MagicLinkIdentity,
  MagicLinkRawAnswers,
  MagicLinkHandoff,
  VerifyCallback,
  VerifyFunction,
  VerifyFunctionWithRequest,
  VerifiedUser,
  VerifyFailureInfo,
} from './strategy/index.js';
export type { FlowStatus, DeviceSummary } from './flow/index.js';
export type { FlowDenial } from './errors/flowCodes.js';

// Guards and the risk decision behind them.
export { requireLowRisk, requireIdentity } from './guards/index.js';
export type {
  RequireLowRiskOptions,
  GuardVerdict,
  RiskAuditEvent,
  RiskHandler,
  GuardOptions,
  GuardMiddleware,
  GuardRefusalCode,
} from './guards/index.js';
export { assessRisk } from './risk/assessRisk.js';
export type { AssessRiskOptions, RiskReason, RiskVerdict } from './risk/assessRisk.js';
export { DEFAULT_RISK_POLICY } from './risk/policy.js';
export type {
  ResolvedRiskPolicy,
  RiskAction,
  RiskPolicy,
  RiskSignal,
  RiskSignalActions,
  SignalName,
} from './risk/policy.js';
export type { CompactSignals } from './risk/compact.js';

// Sessions and what the login leaves in them.
export { sessionCompat, readLoginRecord } from './session/index.js';
export type { SessionCompatOptions, LoginRecord, LoginRiskRecord, SessionLike } from './session/index.js';

// State the strategy keeps between the send and the click, and the send limits.
export { MemoryFlowStore, RedisFlowStore } from './stores/index.js';
export type { FlowStore, MemoryFlowStoreOptions, RedisClientLike, RedisFlowStoreOptions } from './stores/index.js';
export { SendLimiter } from './limits/index.js';
export type {
  SendDecision,
  SendLimitedBy,
  SendLimit,
  SendLimitsOptions,
  SendLimitsRedisClient,
} from './limits/index.js';

// Errors: the routes' classes as values, `isOtplessError` to narrow by code; every class, the
// client's too, is a value at `passport-otpless/errors`. `instanceof` holds across two copies.
export { OtplessError, OtplessSetupError, OtplessRequestError, isOtplessError } from './errors/index.js';
export type {
  OtplessInputError,
  OtplessApiError,
  OtplessTimeoutError,
  OtplessNetworkError,
  OtplessResponseError,
  OtplessStateError,
  AnyOtplessError,
  OtplessErrorCode,
  OtplessErrorByCode,
  ClientErrorCode,
  RequestErrorCode,
  SetupErrorCode,
  OtplessRequestErrorBody,
} from './errors/index.js';

// Passkeys after a link login (the mount's `passkeys` option): the app's list and remove, the store.
export { passkeysOf, StoreCredentials } from './passkey/index.js';
export type {
  PasskeyOptions,
  PasskeyCredential,
  PasskeyCredentialStore,
  PasskeyManager,
  PasskeySummary,
} from './passkey/index.js';

// Events (diagnostics_channel), for logs, metrics and OpenTelemetry.
export { channels } from './diagnostics.js';
export type {
  LinkSentEvent,
  SendRefusedEvent,
  LoginSucceededEvent,
  LoginRefusedEvent,
  HandoffApprovedEvent,
  HandoffDeniedEvent,
  ServiceNotSuccessEvent,
  PasskeyOfferedEvent,
  PasskeyRegisteredEvent,
  PasskeyLoginEvent,
  EventChannel,
  GuardVerdictEvent,
  ServiceCallContext,
  ServiceCallChannel,
  ServiceCallSubscribers,
} from './diagnostics.js';

// Option types the strategy shares with the client, and the wire types its profile carries.
export type { OtplessClientOptions } from './client/options.js';
export type { IdentityType, DeliveryMethod, MagicLinkChannel, SecureInfo } from './wire/types.js';

// What the app's own pages are given (strategy option `pages`).
export type { ApprovalOutcome } from './errors/flowCodes.js';
export type {
  PageForm,
  PageViewBase,
  ApprovalView,
  OutcomeView,
  ConfirmView,
  SignInView,
  SignInField,
  SignInChannel,
  WaitingView,
  WaitingStatus,
  ErrorView,
  PageView,
  PageRender,
  PageOptions,
  PageTheme,
  LocaleOptions,
  MessageKey,
  Messages,
} from './web/view.js';
export type { CountryCode } from './contact/phone.js';
export type { HttpRequest, NextFunction } from './web/request.js';

// A bot check before the send (Cloudflare Turnstile, hCaptcha, reCAPTCHA): the strategy's `botCheck`.
export { botCheck } from './botCheck/botCheck.js';
export type { BotCheck, BotCheckOptions, BotCheckProvider, BotCheckWidget } from './botCheck/botCheck.js';

// The one mount: every route of the login (sign-in, send, waiting, status, callback) in one call.
export { magicLinkRoutes } from './routes/mount.js';
export { requireServiceSession } from './guards/requireServiceSession.js';
export type { RequireServiceSessionOptions } from './guards/requireServiceSession.js';
export type { MagicLinkRoutesOptions, MagicLinkRoutesMiddleware, PassportLike } from './routes/mount.js';
export type { LoginRoutesOptions } from './routes/loginRoutes.js';
export type { LoginPaths } from './routes/paths.js';
export type { PagePaths } from './routes/pageRoutes.js';

// Native Fastify: links the reply for the callback's pages and gives the secret signals are sealed with.
export { otplessFastify } from './routes/fastify.js';
export type { OtplessFastifyOptions, OtplessFastifyPlugin, FastifyPassportLike } from './routes/fastify.js';
// What `send()`, `status()` and the guards return: Node middleware, or a Fastify handler.
export type { HostHandler } from './web/host.js';
