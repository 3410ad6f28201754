import { describe, expect, expectTypeOf, it } from 'vitest';
import { isOtplessError, OtplessRequestError, OtplessSetupError } from '../../src/index.js';
import type { AnyOtplessError, RequestErrorCode, SetupErrorCode } from '../../src/index.js';
import type { OtplessApiError, OtplessInputError } from '../../src/client/index.js';

// Type tests: `tsc` (npm run typecheck covers test/) checks the expectTypeOf lines and that each
// `@ts-expect-error` line really is an error; vitest runs the same narrowing at run time.
describe('isOtplessError narrows by code', () => {
  it("narrows a request error's code to OtplessRequestError, with status and field", () => {
    const err: unknown = new OtplessRequestError(503, 'SERVICE_UNAVAILABLE', 'Try again in a minute.');
    if (!isOtplessError(err, 'SERVICE_UNAVAILABLE')) throw new Error('not narrowed');
    expectTypeOf(err).toEqualTypeOf<OtplessRequestError>();
    expectTypeOf(err.status).toEqualTypeOf<number>();
    expectTypeOf(err.code).toEqualTypeOf<RequestErrorCode>();
    expectTypeOf(err.field).toEqualTypeOf<string | undefined>();
    // @ts-expect-error a route error has no timeoutMs (that is OtplessTimeoutError's)
    void err.timeoutMs;
    expect([err.status, err.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  });

  it("narrows a setup error's code to OtplessSetupError, whose status is 500", () => {
    const err: unknown = OtplessSetupError.missingSession();
    if (!isOtplessError(err, 'MISSING_SESSION')) throw new Error('not narrowed');
    expectTypeOf(err).toEqualTypeOf<OtplessSetupError>();
    expectTypeOf(err.code).toEqualTypeOf<SetupErrorCode>();
    // @ts-expect-error a setup error has no field
    void err.field;
    expect([err.status, err.code]).toEqual([500, 'MISSING_SESSION']);
  });

  it('narrows to the union of every class without a code, on which switch (err.code) narrows', () => {
    const err: unknown = new OtplessRequestError(400, 'INVALID_INPUT', 'Check the e-mail address.', 'email');
    if (!isOtplessError(err)) throw new Error('not narrowed');
    expectTypeOf(err).toEqualTypeOf<AnyOtplessError>();
    switch (err.code) {
      case 'INVALID_ARGUMENT':
        expectTypeOf(err).toEqualTypeOf<OtplessInputError>();
        break;
      case 'API_ERROR':
        expectTypeOf(err).toEqualTypeOf<OtplessApiError>();
        break;
      case 'INVALID_INPUT':
        expectTypeOf(err).toEqualTypeOf<OtplessRequestError>();
        expect(err.field).toBe('email');
        break;
      default:
        expect.fail(`narrowed to ${err.code}`);
    }
    expect(isOtplessError(err, 'INVALID_INPUT')).toBe(true);
    expect(isOtplessError(err, 'INVALID_ARGUMENT')).toBe(false);
    expect(isOtplessError(err, 'MISSING_SESSION')).toBe(false);
  });

  it('accepts only the codes of the package', () => {
    // @ts-expect-error 'REQUEST_FAILED' names no refusal: a route error's code says why it failed
    expect(isOtplessError(new Error('x'), 'REQUEST_FAILED')).toBe(false);
    expectTypeOf(isOtplessError).toBeCallableWith(new Error('x'), 'TIMEOUT');
  });
});
