// passport-otpless/client: the typed client for the OTPless service, its errors and the wire
// types, for an app that calls the service itself. Named exports only.
export { OtplessClient } from './OtplessClient.js';
export type { OtplessClientOptions } from './options.js';
export type { SendMagicLinkInput } from './validate.js';
export {
  OtplessError,
  OtplessInputError,
  OtplessApiError,
  OtplessTimeoutError,
  OtplessNetworkError,
  OtplessResponseError,
  OtplessStateError,
  isOtplessError,
} from '../errors/index.js';
export type {
  AnyOtplessError,
  ClientErrorCode,
  OtplessApiErrorDetails,
  OtplessErrorByCode,
  OtplessErrorCode,
} from '../errors/index.js';
export type * from '../wire/types.js';
export { ENDPOINTS, DEFAULT_AUTH_URL, DEFAULT_USER_AUTH_URL, MAGIC_LINK_CHANNELS } from '../wire/endpoints.js';
export type { EndpointName, EndpointDescriptor, CredentialPlacement, ServiceHost } from '../wire/endpoints.js';
