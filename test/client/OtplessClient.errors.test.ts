import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { isOtplessError, OtplessError } from '../../src/index.js';
import {
  OtplessApiError,
  OtplessInputError,
  OtplessNetworkError,
  OtplessResponseError,
  OtplessTimeoutError,
} from '../../src/client/index.js';

describe('error classes', () => {
  const all = [
    new OtplessInputError('email', 'bad email'),
    new OtplessApiError({
      endpoint: 'verifyCode',
      status: 401,
      errorCode: '7002',
      description: 'Invalid credentials',
      serviceMessage: 'Authorization error',
    }),
    new OtplessTimeoutError('userInfo', 1000),
    new OtplessNetworkError('validateToken', 'unreachable', new Error('ECONNREFUSED')),
    new OtplessResponseError('secureInfo', 200, 'body is not JSON'),
  ];

  it('share one base, with a stable code and a name of their own', () => {
    expect(all.map((e) => [e.name, e.code])).toEqual([
      ['OtplessInputError', 'INVALID_ARGUMENT'],
      ['OtplessApiError', 'API_ERROR'],
      ['OtplessTimeoutError', 'TIMEOUT'],
      ['OtplessNetworkError', 'NETWORK'],
      ['OtplessResponseError', 'BAD_RESPONSE'],
    ]);
    for (const e of all) {
      expect(e).toBeInstanceOf(OtplessError);
      expect(e).toBeInstanceOf(Error);
      expect(isOtplessError(e)).toBe(true);
      expect(isOtplessError(e, e.code)).toBe(true);
      expect(isOtplessError(e, 'NOT_A_CODE' as never)).toBe(false);
      expect(String(e.stack)).toContain(e.name);
    }
  });

  it('carry their fields as plain enumerable data', () => {
    expect(JSON.parse(JSON.stringify(all[1]))).toEqual({
      code: 'API_ERROR',
      endpoint: 'verifyCode',
      status: 401,
      errorCode: '7002',
      description: 'Invalid credentials',
      serviceMessage: 'Authorization error',
    });
    expect(all[1]?.message).toBe(
      'OTPless verifyCode failed with HTTP 401 (errorCode 7002): Invalid credentials. Check clientId and clientSecret, and that this client may use this endpoint.',
    );
    expect(JSON.parse(JSON.stringify(all[2]))).toEqual({ code: 'TIMEOUT', endpoint: 'userInfo', timeoutMs: 1000 });
    expect(all[0]).toMatchObject({ field: 'email' });
    expect(inspect(all[4])).toContain("code: 'BAD_RESPONSE'");
  });

  it('isOtplessError narrows by code', () => {
    const err: unknown = all[1];
    if (isOtplessError(err, 'API_ERROR')) expect(err.status).toBe(401);
    else expect.fail('not narrowed');
  });

  it('isOtplessError rejects look-alikes', () => {
    for (const v of [
      undefined,
      null,
      'API_ERROR',
      42,
      new Error('x'),
      { code: 'API_ERROR' },
      Object.assign(new Error('x'), { code: 'TIMEOUT' }),
    ]) {
      expect(isOtplessError(v)).toBe(false);
      expect(isOtplessError(v, 'API_ERROR')).toBe(false);
    }
  });

  it('recognises errors of a second copy of the package, by instanceof too', async () => {
    vi.resetModules();
    const copy = await import('../../src/errors/index.js');
    const foreign = new copy.OtplessTimeoutError('verifyCode', 5);
    expect(copy.OtplessTimeoutError).not.toBe(OtplessTimeoutError);
    expect(foreign).toBeInstanceOf(OtplessError);
    expect(foreign).toBeInstanceOf(OtplessTimeoutError);
    expect(foreign).not.toBeInstanceOf(OtplessApiError);
    expect(isOtplessError(foreign, 'TIMEOUT')).toBe(true);
    expect(copy.isOtplessError(all[2], 'TIMEOUT')).toBe(true);
  });
});
