// The public surface of passport-otpless: named exports only.
export type * from './wire/types.js';
export { ENDPOINTS, DEFAULT_AUTH_URL, DEFAULT_USER_AUTH_URL, MAGIC_LINK_CHANNELS } from './wire/endpoints.js';
export type { EndpointName, EndpointDescriptor, CredentialPlacement, ServiceHost } from './wire/endpoints.js';
export * from './errors.js';
export { channels, CHANNEL_NAMES } from './diagnostics.js';
export type {
  LinkSentEvent,
  SendRefusedEvent,
  LoginSucceededEvent,
  LoginRefusedEvent,
  HandoffDecidedEvent,
  GuardVerdictEvent,
  ServiceCallContext,
} from './diagnostics.js';
export * from './client/index.js';
export * from './risk/index.js';
export * from './session/index.js';
export * from './stores/index.js';
export * from './flow/index.js';
export * from './web/index.js';
export * from './strategy/index.js';
export * from './guards/index.js';
export * from './limits/index.js';
export type { CountryCode } from './contact/phone.js';
export { otplessFastify } from './web/fastify.js';
export type { OtplessFastifyOptions, OtplessFastifyPlugin } from './web/fastify.js';
