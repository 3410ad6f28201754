import { describe, expect, expectTypeOf, it } from 'vitest';
import { isOtplessError } from '../../src/index.js';
import { OtplessRequestError, OtplessSetupError } from '../../src/errors.js';
import type { OtplessError, OtplessErrorCode, RequestFailureReason, SetupFailureReason } from '../../src/index.js';
import type { OtplessApiError } from '../../src/client/index.js';

// Type tests: `tsc` (npm run typecheck covers test/) checks the expectTypeOf lines and that each
// `@ts-expect-error` line really is an error; vitest runs the same narrowing at run time.
describe('isOtplessError narrows by code', () => {
  it("narrows 'REQUEST_FAILED' to OtplessRequestError, with status, reason and field", () => {
    const err: unknown = new OtplessRequestError(503, 'SERVICE_UNAVAILABLE', 'Try again in a minute.');
    if (!isOtplessError(err, 'REQUEST_FAILED')) throw new Error('not narrowed');
    expectTypeOf(err).toEqualTypeOf<OtplessRequestError>();
    expectTypeOf(err.status).toEqualTypeOf<number>();
    expectTypeOf(err.reason).toEqualTypeOf<RequestFailureReason>();
    expectTypeOf(err.field).toEqualTypeOf<string | undefined>();
    expectTypeOf(err.code).toEqualTypeOf<'REQUEST_FAILED'>();
    // @ts-expect-error a route error has no timeoutMs (that is OtplessTimeoutError's)
    void err.timeoutMs;
    expect([err.status, err.reason]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  });

  it("narrows 'SETUP_ERROR' to OtplessSetupError, whose status is 500", () => {
    const err: unknown = OtplessSetupError.missingSession();
    if (!isOtplessError(err, 'SETUP_ERROR')) throw new Error('not narrowed');
    expectTypeOf(err).toEqualTypeOf<OtplessSetupError>();
    expectTypeOf(err.reason).toEqualTypeOf<SetupFailureReason>();
    expectTypeOf(err.status).toEqualTypeOf<number>();
    // @ts-expect-error a setup error has no field
    void err.field;
    expect([err.status, err.reason]).toEqual([500, 'MISSING_SESSION']);
  });

  it('narrows to OtplessError without a code, and to the class of any other code', () => {
    const err: unknown = new OtplessRequestError(400, 'INVALID_INPUT', 'Check the e-mail address.', 'email');
    if (isOtplessError(err)) {
      expectTypeOf(err).toEqualTypeOf<OtplessError>();
      expectTypeOf(err.code).toEqualTypeOf<OtplessErrorCode>();
    }
    if (isOtplessError(err, 'API_ERROR')) expectTypeOf(err).toEqualTypeOf<OtplessApiError>();
    expect(isOtplessError(err)).toBe(true);
    expect(isOtplessError(err, 'REQUEST_FAILED')).toBe(true);
    expect(isOtplessError(err, 'SETUP_ERROR')).toBe(false);
  });

  it('accepts only the codes of the package', () => {
    // @ts-expect-error 'SERVICE_UNAVAILABLE' is a reason of REQUEST_FAILED, not an error code
    expect(isOtplessError(new Error('x'), 'SERVICE_UNAVAILABLE')).toBe(false);
    expectTypeOf(isOtplessError).toBeCallableWith(new Error('x'), 'TIMEOUT');
  });
});
