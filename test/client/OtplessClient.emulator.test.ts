import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EMULATOR_DEFAULT_CLIENT,
  EMULATOR_WHATSAPP_NUMBER,
  RISK_SCENARIOS,
  startEmulator,
  type Emulator,
} from '../../src/emulator/index.js';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { isOtplessError } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { expectNoSecrets, needlesOf } from './helpers/secrets.js';

/** The timeout test's limit; the emulator holds its answer far longer. */
const TIMEOUT = 200;
let emu: Emulator;
/** Nothing but the timeout test may time out, however busy the machine: a patient client. */
let client: OtplessClient;
let quick: OtplessClient;
/** Every error this file produces, with the values it must not contain. */
const produced: { err: unknown; values: string[] }[] = [];

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  client = new OtplessClient({
    ...EMULATOR_DEFAULT_CLIENT,
    authUrl: emu.authUrl,
    userAuthUrl: emu.userAuthUrl,
    timeoutMs: 30_000,
  });
  quick = new OtplessClient({
    ...EMULATOR_DEFAULT_CLIENT,
    authUrl: emu.authUrl,
    userAuthUrl: emu.userAuthUrl,
    timeoutMs: TIMEOUT,
  });
});
afterEach(() => emu.clearFaults());
afterAll(async () => {
  // The emulator first: it cancels the held answer, so the clients have nothing to wait for.
  await emu.close();
  await client.close();
  await quick.close();
});

/** The call's error (recorded for the secrets check at the end); fails if the call succeeds. */
async function errorOf(call: Promise<unknown>, ...values: string[]): Promise<Record<string, unknown>> {
  const err = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  produced.push({ err, values: [EMULATOR_DEFAULT_CLIENT.clientSecret, ...values] });
  return err as Record<string, unknown>;
}

/** Follows a magic link like a browser would (without following the redirect) and returns the code. */
async function click(link: string, risk?: string): Promise<string> {
  const res = await fetch(risk ? `${link}?risk=${risk}` : link, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const code = new URL(res.headers.get('location') ?? '').searchParams.get('code');
  if (!code) throw new Error('no code in the redirect');
  return code;
}

/** send → click → verify, the whole magic-link login. */
async function login(to: { email?: string; mobileNumber?: string }, risk?: string) {
  const sent = await client.sendMagicLink({ ...to, redirectUri: 'https://app.example/login/callback', expiry: 120 });
  const entry = emu.outbox().at(-1);
  if (!entry) throw new Error('nothing in the outbox');
  const code = await click(entry.link, risk);
  const verified = await client.verifyCode(code);
  return { sent, entry, code, verified, token: verified.userDetails.token };
}

describe('every call, end to end against the emulator', () => {
  it('e-mail login: send, click, verify, then userInfo, validateToken, secureInfo, sessionDetails', async () => {
    const { sent, entry, verified, token } = await login({ email: 'Ada@Example.com' });
    expect(sent.requestIds).toEqual([{ type: 'EMAIL', value: entry.requestId }]);
    expect(entry.channel).toBe('EMAIL');
    expect(verified.requestId).toBe(entry.requestId);
    expect(verified.userDetails.identities[0]).toMatchObject({
      identityType: 'EMAIL',
      identityValue: 'ada@example.com',
      verified: true,
    });

    const info = await client.getUserInfo(token);
    expect(info.email).toBe('ada@example.com');

    const validated = await client.validateToken(token);
    expect(validated).toMatchObject({ token, status: 'SUCCESS' });
    expect(typeof validated.identities[0]?.verifiedAt).toBe('string');

    const secure = await client.getSecureInfo(token);
    expect(secure.status).toBe('SUCCESS');
    expect(typeof secure.secure_info).toBe('object');

    const session = await client.getSessionDetails(entry.sessionToken);
    expect(session.userId).toBe(validated.userId);
    expect(typeof session.identities[0]?.verifiedAt).toBe('number');
  });

  it('mobile and e-mail at once: one request entry per channel, one request id for both', async () => {
    const sent = await client.sendMagicLink({
      mobileNumber: '+91 98765-43210',
      email: 'grace@example.com',
      redirectUri: 'https://app.example/cb',
    });
    expect(sent.requestIds.map((r) => r.type).sort()).toEqual(['EMAIL', 'MOBILE']);
    expect(new Set(sent.requestIds.map((r) => r.value)).size).toBe(1);
    expect(sent.requestIds.find((r) => r.type === 'MOBILE')?.destinationUri).toBe(
      `https://wa.me/${EMULATOR_WHATSAPP_NUMBER}`,
    );
    const mobile = emu.outbox().find((e) => e.type === 'MOBILE' && e.to === '919876543210');
    expect(mobile).toBeDefined();
    const { requestId, userDetails } = await client.verifyCode(await click(mobile?.link ?? ''));
    expect(requestId).toBe(sent.requestIds[0]?.value);
    expect(userDetails.identities[0]).toMatchObject({ identityType: 'MOBILE', identityValue: '919876543210' });
    expect(await client.getUserInfo(userDetails.token)).toMatchObject({ phone_number: expect.any(String) });
  });

  it.each(RISK_SCENARIOS)('risk scenario %s passes every guard (via the link and via issueToken)', async (risk) => {
    const { token } = await login({ email: `risk-${risk}@example.com` }, risk);
    await client.validateToken(token);
    await client.getSecureInfo(token);
    const issued = emu.issueToken({ email: `issued-${risk}@example.com`, risk });
    await client.validateToken(issued);
    await client.getSecureInfo(issued);
    await client.getUserInfo(issued);
  });
});

describe('codes and tokens: single use and expiry', () => {
  it('a code works once', async () => {
    const { code } = await login({ email: 'once@example.com' });
    const err = await errorOf(client.verifyCode(code), code);
    expect(err).toMatchObject({
      code: 'API_ERROR',
      status: 400,
      errorCode: '7114',
      serviceMessage: 'Invalid Request',
      endpoint: 'verifyCode',
    });
  });

  it('a code expires with its link', async () => {
    await client.sendMagicLink({ email: 'late@example.com', redirectUri: 'https://app.example/cb', expiry: 60 });
    const code = await click(emu.outbox().at(-1)?.link ?? '');
    emu.advanceTime(61_000);
    const err = await errorOf(client.verifyCode(code), code);
    expect(err).toMatchObject({ code: 'API_ERROR', status: 401, errorCode: '7301' });
  });

  it('an expired token: API_ERROR 401 7301 on every token call', async () => {
    const token = emu.issueToken({ email: 'old@example.com' });
    emu.advanceTime(24 * 60 * 60 * 1000);
    expect(await errorOf(client.getUserInfo(token), token)).toMatchObject({
      code: 'API_ERROR',
      status: 401,
      serviceMessage: 'Expired',
      description: 'Request error: Token is expired',
      errorCode: '7301',
    });
    expect(await errorOf(client.validateToken(token), token)).toMatchObject({
      code: 'API_ERROR',
      status: 401,
      errorCode: '7301',
    });
    expect(await errorOf(client.getSecureInfo(token), token)).toMatchObject({
      code: 'API_ERROR',
      status: 401,
      errorCode: '7301',
    });
  });

  it('unknown code, token and session token', async () => {
    expect(await errorOf(client.verifyCode('no-such-code'), 'no-such-code')).toMatchObject({
      status: 400,
      errorCode: '7114',
    });
    expect(await errorOf(client.validateToken('no-such-token'), 'no-such-token')).toMatchObject({
      status: 400,
      errorCode: '7114',
    });
    expect(await errorOf(client.getSessionDetails('no-such-session'), 'no-such-session')).toMatchObject({
      status: 400,
      errorCode: '7114',
    });
  });
});

describe('configuration mistakes', () => {
  it('a wrong secret: 401 on every endpoint, never echoed', async () => {
    const wrongSecret = 'wrong-secret-value-987';
    const bad = new OtplessClient({
      clientId: EMULATOR_DEFAULT_CLIENT.clientId,
      clientSecret: wrongSecret,
      authUrl: emu.authUrl,
      userAuthUrl: emu.userAuthUrl,
    });
    const token = emu.issueToken();
    const calls = [
      () => bad.sendMagicLink({ email: 'a@example.com', redirectUri: 'https://app.example/cb' }),
      () => bad.verifyCode('some-code'),
      () => bad.getUserInfo(token),
      () => bad.validateToken(token),
      () => bad.getSecureInfo(token),
      () => bad.getSessionDetails('some-session'),
    ];
    for (const call of calls) {
      const err = await errorOf(call(), wrongSecret, token, 'some-code', 'some-session');
      expect(err).toMatchObject({ code: 'API_ERROR', status: 401 });
    }
    await bad.close();
  });

  it('wrong host: the hosts swapped give API_ERROR 404, never a half-typed result', async () => {
    const swapped = new OtplessClient({
      ...EMULATOR_DEFAULT_CLIENT,
      authUrl: emu.userAuthUrl,
      userAuthUrl: emu.authUrl,
    });
    const token = emu.issueToken();
    expect(await errorOf(swapped.verifyCode('c'))).toMatchObject({
      code: 'API_ERROR',
      status: 404,
      errorCode: 'EMU-404',
    });
    expect(await errorOf(swapped.validateToken(token), token)).toMatchObject({ code: 'API_ERROR', status: 404 });
    await swapped.close();
  });
});

describe('emulator faults map to the right error code', () => {
  it.each([
    [400, '7102'],
    [401, '7002'],
    [429, '7023'],
    [500, undefined],
    [503, undefined],
  ])('HTTP %i → API_ERROR with status and errorCode', async (status, errorCode) => {
    emu.fault({
      path: ENDPOINTS.verifyCode.path,
      status,
      ...(errorCode ? { body: { message: 'Injected', errorCode, description: 'Injected fault.' } } : {}),
    });
    const err = await errorOf(client.verifyCode('code-x'), 'code-x');
    expect(err).toMatchObject({
      code: 'API_ERROR',
      status,
      errorCode: errorCode ?? 'EMU-FAULT',
      endpoint: 'verifyCode',
    });
  });

  it.each([
    ['ipRateLimited', 429, '7023', 'Rate Limit Exceeded'],
    ['appNotAllowed', 403, '7026', 'Access blocked'],
    ['invalidCredentials', 401, '7002', 'Access blocked'],
  ] as const)('the service error %s → API_ERROR %i %s', async (error, status, errorCode, serviceMessage) => {
    emu.fault({ path: ENDPOINTS.verifyCode.path, error });
    const err = await errorOf(client.verifyCode('code-y'), 'code-y');
    expect(err).toMatchObject({ code: 'API_ERROR', status, errorCode, serviceMessage, endpoint: 'verifyCode' });
  });

  it('a delay past the timeout → TIMEOUT at timeoutMs, not at the 10 s default', async () => {
    // Held 8 s: far past 200 ms, yet before the 10 s default, so a client that ignored its
    // timeoutMs would get the answer and succeed.
    emu.fault({ path: ENDPOINTS.validateToken.path, delayMs: 8_000 });
    const err = await errorOf(quick.validateToken('tok-delay'), 'tok-delay');
    expect(err).toMatchObject({ code: 'TIMEOUT', endpoint: 'validateToken', timeoutMs: TIMEOUT });
  });

  it('a reset → NETWORK', async () => {
    emu.fault({ path: ENDPOINTS.userInfo.path, reset: true });
    expect(await errorOf(client.getUserInfo('tok-reset'), 'tok-reset')).toMatchObject({
      code: 'NETWORK',
      endpoint: 'userInfo',
    });
  });

  it.each([
    ['broken JSON', '{"requestIds": [', 'not JSON'],
    ['an empty body', '', 'empty body'],
    ['a wrong shape', { requestIds: [{ type: 'EMAIL' }] }, 'requestIds[0].value'],
    ['a huge body', 'x'.repeat(2 * 1024 * 1024), 'larger than maxResponseBytes'],
  ] as const)('200 with %s → BAD_RESPONSE', async (_what, body, text) => {
    emu.fault({
      path: ENDPOINTS.sendMagicLink.path,
      status: 200,
      body,
      headers: { 'content-type': 'application/json' },
    });
    const err = await errorOf(client.sendMagicLink({ email: 'a@example.com', redirectUri: 'https://app.example/cb' }));
    expect(err).toMatchObject({ code: 'BAD_RESPONSE', endpoint: 'sendMagicLink', status: 200 });
    expect(String(err.message)).toContain(text);
  });

  it('the client works normally once the faults are gone', async () => {
    const token = emu.issueToken();
    await expect(client.validateToken(token)).resolves.toMatchObject({ token });
  });
});

describe('no error of this file leaks the secret, a code or a token', () => {
  it('searches every error produced above', () => {
    expect(produced.length).toBeGreaterThan(25);
    for (const { err, values } of produced) {
      expect(isOtplessError(err)).toBe(true);
      expectNoSecrets(err, needlesOf(...values));
    }
  });
});
