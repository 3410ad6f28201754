// An app's error handling against `passport-otpless/errors`, as a consumer writes it: every
// class imported as a value, and `switch (err.code)` narrowing to the class on the code alone
// (each case assigns the error to its class, which fails to compile if the narrowing did not;
// the `never` default fails if a code has no case). Run, it prints what it made of one error of
// each class. Compiled as .mts and .cts by scripts/check-types.mjs and
// test/types/errorsConsumer.test.ts.
export const ERRORS_CONSUMER = `
import {
  isOtplessError,
  OtplessApiError,
  OtplessError,
  OtplessInputError,
  OtplessNetworkError,
  OtplessRequestError,
  OtplessResponseError,
  OtplessSetupError,
  OtplessStateError,
  OtplessTimeoutError,
} from 'passport-otpless/errors';
import type { AnyOtplessError } from 'passport-otpless/errors';

export function handle(err: AnyOtplessError): string {
  switch (err.code) {
    case 'INVALID_ARGUMENT': {
      const e: OtplessInputError = err;
      return 'argument ' + e.field;
    }
    case 'API_ERROR': {
      const e: OtplessApiError = err;
      return 'api ' + e.status + ' ' + (e.errorCode ?? '-');
    }
    case 'TIMEOUT': {
      const e: OtplessTimeoutError = err;
      return 'timeout ' + e.timeoutMs;
    }
    case 'NETWORK': {
      const e: OtplessNetworkError = err;
      return 'network ' + e.endpoint;
    }
    case 'BAD_RESPONSE': {
      const e: OtplessResponseError = err;
      return 'response ' + (e.status ?? '-');
    }
    case 'NOT_SUCCESS': {
      const e: OtplessStateError = err;
      return 'state ' + e.serviceStatus;
    }
    case 'MISSING_SESSION':
    case 'MISSING_BODY_PARSER':
    case 'MISSING_RESPONSE':
    case 'NO_LOGIN_RECORD':
    case 'MISSING_SESSION_SECRET':
    case 'REDIRECT_NEEDS_EXPRESS':
    case 'PASSKEY_NEEDS_DOMAIN':
    case 'PASSKEY_DEPENDENCY_MISSING': {
      const e: OtplessSetupError = err;
      return 'setup ' + e.code + ' ' + e.status;
    }
    case 'INVALID_INPUT':
    case 'CROSS_SITE':
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'BODY_TOO_LARGE':
    case 'RATE_LIMITED':
    case 'BOT_CHECK_FAILED':
    case 'BOT_CHECK_UNAVAILABLE':
    case 'SERVICE_TIMEOUT':
    case 'SERVICE_UNAVAILABLE':
    case 'SERVICE_ERROR':
    case 'SERVICE_NOT_SUCCESS':
    case 'STORE_UNAVAILABLE':
    case 'PASSKEY_NOT_ALLOWED':
    case 'PASSKEY_CHALLENGE_EXPIRED':
    case 'PASSKEY_UNKNOWN':
    case 'PASSKEY_WRONG_ORIGIN':
    case 'PASSKEY_COUNTER_BACKWARDS':
    case 'PASSKEY_INVALID': {
      const e: OtplessRequestError = err;
      return 'request ' + e.code + ' ' + e.status + ' ' + JSON.stringify(e.toJSON());
    }
    default: {
      const unhandled: never = err;
      return unhandled;
    }
  }
}

const thrown: unknown[] = [
  new OtplessInputError('email', 'Enter an e-mail address.'),
  new OtplessApiError({ endpoint: 'verifyCode', status: 401, errorCode: '7002' }),
  new OtplessTimeoutError('verifyCode', 5000),
  new OtplessNetworkError('validateToken', 'unreachable'),
  new OtplessResponseError('secureInfo', 200, 'not JSON'),
  new OtplessStateError('verifyCode', 200, 'NOT_FOUND'),
  OtplessSetupError.missingSession(),
  new OtplessRequestError(429, 'RATE_LIMITED', 'Try again in a minute.', 'email', undefined, 60),
];
const seen = thrown.map((err) =>
  isOtplessError(err) && err instanceof OtplessError ? handle(err) : 'not ours',
);
console.log(JSON.stringify(seen));
`;
