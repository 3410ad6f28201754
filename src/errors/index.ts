// passport-otpless/errors: every error class of the package, as values, with their codes. Each
// `instanceof` holds across two copies of the package (see brand.ts); `switch (err.code)` on
// an `AnyOtplessError` narrows to the class.
export { OtplessError } from './OtplessError.js';
export { OtplessInputError } from './OtplessInputError.js';
export { OtplessApiError } from './OtplessApiError.js';
export type { OtplessApiErrorDetails } from './OtplessApiError.js';
export { OtplessTimeoutError } from './OtplessTimeoutError.js';
export { OtplessNetworkError } from './OtplessNetworkError.js';
export { OtplessResponseError } from './OtplessResponseError.js';
export { OtplessStateError } from './OtplessStateError.js';
export { OtplessSetupError } from './OtplessSetupError.js';
export { OtplessRequestError } from './OtplessRequestError.js';
export type { OtplessRequestErrorBody } from './OtplessRequestError.js';
export { isOtplessError } from './isOtplessError.js';
export type { AnyOtplessError, OtplessErrorByCode } from './isOtplessError.js';
export type { ClientErrorCode, OtplessErrorCode, RequestErrorCode, SetupErrorCode } from './codes.js';
