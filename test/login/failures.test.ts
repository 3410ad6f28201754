/**
 * How a failed call to the service reaches the visitor: a refusal (the visitor's problem, 4xx
 * through Passport's `fail`) or an error (ours or the service's: 502/503/504). Each body is a
 * real one from service-facts.md, answered by a real local server and read by the client.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import {
  isCredentialProblem,
  isRejectedByService,
  serviceFailure,
  serviceFieldOf,
  statusForServiceError,
} from '../../src/login/failures.js';
import { warnOnce } from '../../src/errors/warnings.js';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import type { CaptureServer } from '../client/helpers/captureServer.js';
import { useCaptureClient } from '../helpers/captureClient.js';

let server: CaptureServer;
let client: OtplessClient;
useCaptureClient((s, c) => ((server = s), (client = c)));
afterEach(() => server.reply(() => ({})));

/** The error the client throws when verify-code is answered `status` with `body`. */
async function errorFor(status: number, body: unknown): Promise<unknown> {
  server.reply(() => ({ status, body }));
  return client.verifyCode('code-1').then(
    () => expect.fail('the call succeeded'),
    (err: unknown) => err,
  );
}

/** Everything the mapping says about an error, in one object. */
function mapped(err: unknown) {
  const route = serviceFailure(err);
  return {
    refusal: isRejectedByService(err),
    credentials: isCredentialProblem(err),
    status: statusForServiceError(err),
    code: route.code,
  };
}

const OPERATOR = { refusal: false, credentials: true, status: 502, code: 'SERVICE_ERROR' };
const REFUSAL = { refusal: true, credentials: false, status: 502, code: 'SERVICE_ERROR' };
const UNAVAILABLE = { refusal: false, credentials: false, status: 503, code: 'SERVICE_UNAVAILABLE' };

describe('credential problems are the operator’s, never the visitor’s', () => {
  it.each([
    [
      '401 7002 invalid credentials',
      401,
      { message: 'Access blocked', errorCode: '7002', description: 'Authorization error: Invalid credentials' },
    ],
    [
      '401 7012 empty credentials',
      401,
      { message: 'Access blocked', errorCode: '7012', description: 'Authorization error: Empty credentials' },
    ],
    ['401 7019 not allowed', 401, { message: 'Unauthorized', errorCode: '7019', description: 'Authorization error' }],
    ['403 7026 app not allowed', 403, { message: 'Forbidden', errorCode: '7026', description: 'Authorization error' }],
    [
      '401 "Access blocked" without errorCode (the documented verify-code 401)',
      401,
      { message: 'Access blocked', description: 'Authorization error: Invalid credentials' },
    ],
    ['403 "Access blocked" with another code', 403, { message: 'Access blocked', errorCode: '7999' }],
    ['401 without errorCode or message', 401, { description: 'Unauthorized' }],
    ['401 with a body that is not JSON', 401, '<html>Unauthorized</html>'],
  ])('%s: an error (502), not CODE_REJECTED', async (_name, status, body) => {
    expect(mapped(await errorFor(status, body))).toEqual(OPERATOR);
  });
});

describe('the visitor’s code or token: a refusal', () => {
  it.each([
    [
      '401 7301 expired',
      401,
      { message: 'Expired', errorCode: '7301', description: 'Request error: Token is expired' },
    ],
    ['401 "Expired" without errorCode', 401, { message: 'Expired', description: 'Request error: Token is expired' }],
    [
      '400 7114 invalid token',
      400,
      { message: 'Invalid Request', errorCode: '7114', description: 'Request error: Invalid token' },
    ],
    ['400 7101 invalid parameters', 400, { message: 'Invalid Request', errorCode: '7101' }],
    ['404 without a body', 404, ''],
  ])('%s: refused', async (_name, status, body) => {
    const err = await errorFor(status, body);
    expect(mapped(err)).toMatchObject({ refusal: true, credentials: false });
    expect(statusForServiceError(err)).toBe(status === 404 ? 502 : status === 400 ? 400 : 502);
  });

  it('the refusal maps the same through a 200 carrying the error shape', async () => {
    server.reply(() => ({ status: 200, body: { message: 'Expired', errorCode: '7301' } }));
    const err = await client.verifyCode('code-1').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'API_ERROR', status: 200 });
    expect(mapped(err)).toEqual(REFUSAL);
  });
});

describe('rate limits and outages: 503', () => {
  it.each([
    ['429 7020', 429, { message: 'Rate Limit Exceeded', errorCode: '7020' }],
    ['429 7024', 429, { message: 'Rate Limit Exceeded', errorCode: '7024' }],
    ['429 without a body', 429, ''],
    ['a rate-limit code on another status', 400, { message: 'Rate Limit Exceeded', errorCode: '7022' }],
    ['503', 503, { message: 'Something went wrong. Please try again!' }],
  ])('%s: SERVICE_UNAVAILABLE', async (_name, status, body) => {
    expect(mapped(await errorFor(status, body))).toEqual(UNAVAILABLE);
  });

  it('a 500: SERVICE_ERROR', async () => {
    const err = await errorFor(500, { message: 'Something went wrong. Please try again!' });
    expect(mapped(err)).toEqual({ refusal: false, credentials: false, status: 502, code: 'SERVICE_ERROR' });
  });
});

describe('serviceFieldOf: which contact the service refused', () => {
  it.each([
    ['7104', 'email'],
    ['7102', 'mobile'],
    ['7106', undefined],
  ])('errorCode %s: %s', async (errorCode, field) => {
    server.reply(() => ({ status: 400, body: { message: 'Invalid Request', errorCode } }));
    const err = await client
      .sendMagicLink({ email: 'ada@example.com', redirectUri: 'https://app.example/cb' })
      .catch((e: unknown) => e);
    expect(serviceFieldOf(err)).toBe(field);
    expect(statusForServiceError(err)).toBe(400);
  });

  it('nothing for errors that are not the service’s', () => {
    expect(serviceFieldOf(new Error('7104'))).toBeUndefined();
    expect(serviceFieldOf(undefined)).toBeUndefined();
  });
});

describe('the operator is told once per process, without secrets', () => {
  it('refused credentials emit one PassportOtplessWarning, however many sign-ins fail', async () => {
    // A fresh copy of the module: the tests above have already warned in this process.
    vi.resetModules();
    const fresh = await import('../../src/login/failures.js');
    const warnings: Error[] = [];
    const listen = (w: Error) => warnings.push(w);
    process.on('warning', listen);
    try {
      for (let i = 0; i < 3; i++)
        fresh.serviceFailure(await errorFor(401, { message: 'Access blocked', errorCode: '7002' }));
      fresh.serviceFailure(await errorFor(403, { message: 'Forbidden', errorCode: '7026' }));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', listen);
    }
    const ours = warnings.filter((w) => w.name === 'PassportOtplessWarning');
    expect(ours.map((w) => (w as Error & { code?: string }).code)).toEqual(['OTPLESS_CREDENTIALS']);
    expect(ours[0]).toMatchObject({ code: 'OTPLESS_CREDENTIALS' });
    expect(ours[0]?.message).toBe(
      "OTPless refused this app's credentials (verifyCode: HTTP 401, errorCode 7002). Check clientId and clientSecret, " +
        'and that this OTPless app may use this call; until then every sign-in fails with a 502.',
    );
    expect(ours[0]?.message).not.toContain('secret');
    expect(ours[0]?.message).not.toContain('code-1');
  });

  it('warnOnce: once per code, and the code on the warning', async () => {
    const warnings: Error[] = [];
    const listen = (w: Error) => warnings.push(w);
    process.on('warning', listen);
    expect(warnOnce('OTPLESS_SETUP', 'first')).toBe(true);
    expect(warnOnce('OTPLESS_SETUP', 'second')).toBe(false);
    expect(warnOnce('OTPLESS_TEST', 'third')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', listen);
    expect(warnings.map((w) => [w.name, w.message, (w as Error & { code?: string }).code])).toEqual([
      ['PassportOtplessWarning', 'first', 'OTPLESS_SETUP'],
      ['PassportOtplessWarning', 'third', 'OTPLESS_TEST'],
    ]);
  });
});

describe('through the strategy: what the visitor gets', () => {
  const { harness } = useSharedEmulator();

  it.each([
    [
      '401 "Access blocked" (no errorCode)',
      { status: 401, body: { message: 'Access blocked', description: 'No.' } },
      502,
    ],
    ['403 7026', { status: 403, body: { message: 'Forbidden', errorCode: '7026' } }, 502],
    ['429 7021', { status: 429, body: { message: 'Rate Limit Exceeded', errorCode: '7021' } }, 503],
  ] as const)('verify answers %s: the callback answers %i, nobody is signed in', async (_name, fault, status) => {
    const h = await harness();
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'ops@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'ops@example.com'));
    h.emulator.fault({ path: '/auth/v1/verify/code', ...fault, times: 1 });
    const res = await browser.get(callback);
    expect(res.status).toBe(status);
    expect(res.body.error).toEqual({
      code: status === 503 ? 'SERVICE_UNAVAILABLE' : 'SERVICE_ERROR',
      message: 'Signing in is not possible right now. Please try again in a moment.',
    });
    expect(JSON.stringify(res.body)).not.toContain(CLIENT.clientSecret);
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('verify answers 401 "Expired" (no errorCode): a refusal the visitor can act on', async () => {
    const h = await harness();
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'late@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'late@example.com'));
    h.emulator.fault({ path: '/auth/v1/verify/code', status: 401, body: { message: 'Expired' }, times: 1 });
    const res = await browser.get(callback);
    expect(res.status).toBe(401);
  });
});

describe('a refused redirect URI', () => {
  it("is the operator's 502 with a warning, never an input error shown to the visitor", async () => {
    const { startEmulator } = await import('../../src/emulator/index.js');
    const { startHarness, CLIENT } = await import('../helpers/harness.js');
    const emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    const h = await startHarness({ emulator });
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => void (w.code && warnings.push(w.code));
    process.on('warning', onWarning);
    try {
      emulator.fault({ path: '/auth/v1/authorize', error: 'invalidRedirectUri', times: 1 } as never);
      const res = await h
        .browser()
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .send({ email: 'r@example.com' });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('SERVICE_ERROR');
      await new Promise((r) => setImmediate(r));
      expect(warnings).toContain('OTPLESS_REDIRECT_URI');
    } finally {
      process.off('warning', onWarning);
      await h.close();
      await emulator.close();
    }
  });
});
