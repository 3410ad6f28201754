export { OtplessError, type OtplessErrorCode } from './OtplessError.js';
export { OtplessInputError } from './OtplessInputError.js';
export { OtplessApiError, type OtplessApiErrorDetails } from './OtplessApiError.js';
export { OtplessTimeoutError } from './OtplessTimeoutError.js';
export { OtplessNetworkError } from './OtplessNetworkError.js';
export { OtplessResponseError } from './OtplessResponseError.js';
export { isOtplessError, type OtplessErrorByCode } from './isOtplessError.js';
