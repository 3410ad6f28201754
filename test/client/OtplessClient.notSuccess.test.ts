/**
 * Only SUCCESS is success: every answer that carries `status` in another state is refused with
 * NOT_SUCCESS (never used as a result), over real sockets, against the emulator's
 * `statusNotSuccess` quirk for each endpoint and a local server for the odd states.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_DEFAULT_CLIENT, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { isOtplessError, OtplessClient } from '../../src/client/index.js';
import { clickLink } from '../helpers/harness.js';
import { type CaptureServer, startCaptureServer } from './helpers/captureServer.js';
import { copy, secureInfoOk, validateTokenOk, verifyCodeOk } from './helpers/fixtures.js';

let emu: Emulator;
let client: OtplessClient;
let server: CaptureServer;
let local: OtplessClient;
const events: unknown[] = [];
const onEvent = (message: unknown) => events.push(message);

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  client = new OtplessClient({ ...EMULATOR_DEFAULT_CLIENT, authUrl: emu.authUrl, userAuthUrl: emu.userAuthUrl });
  server = await startCaptureServer();
  local = new OtplessClient({ clientId: 'id', clientSecret: 'secret', authUrl: server.url, userAuthUrl: server.url });
  subscribe('passport-otpless:service:not-success', onEvent);
});
afterEach(() => {
  emu.setQuirks({});
  events.length = 0;
});
afterAll(async () => {
  unsubscribe('passport-otpless:service:not-success', onEvent);
  await Promise.all([client.close(), local.close()]);
  await Promise.all([emu.close(), server.close()]);
});

/** A code from a clicked link, as the callback would get it. */
async function freshCode(email: string): Promise<string> {
  await client.sendMagicLink({ email, redirectUri: 'https://app.example/callback' });
  const entry = emu.outbox().find((e) => e.to === email)!;
  return new URL(await clickLink(entry.link), 'https://app.example').searchParams.get('code')!;
}

async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isOtplessError(err, 'NOT_SUCCESS')) throw new Error(`expected NOT_SUCCESS, got ${String(err)}`);
  return err;
}

describe('the emulator answering a state other than SUCCESS: each endpoint refuses it', () => {
  it('verify-code (userDetails.status), with its message', async () => {
    const code = await freshCode('state-verify@example.com');
    emu.setQuirks({ statusNotSuccess: true });
    const err = await refusal(client.verifyCode(code));
    expect(err).toMatchObject({
      endpoint: 'verifyCode',
      status: 200,
      serviceStatus: 'NOT_FOUND',
      serviceMessage: 'Code verification did not complete',
    });
    expect(err.message).not.toContain(code);
    expect(events).toEqual([{ endpoint: 'verifyCode', status: 200, serviceStatus: 'NOT_FOUND' }]);
  });

  it.each([
    ['validate-token', 'validateToken', (t: string) => client.validateToken(t)],
    ['secure-info', 'secureInfo', (t: string) => client.getSecureInfo(t)],
  ] as const)('%s', async (_name, endpoint, call) => {
    const token = emu.issueToken({ email: `state-${endpoint}@example.com` });
    // Without the quirk the same token reads: the refusal is the state, nothing else.
    await expect(call(token)).resolves.toMatchObject({ status: 'SUCCESS' });
    emu.setQuirks({ statusNotSuccess: true });
    const err = await refusal(call(token));
    expect(err).toMatchObject({ endpoint, status: 200, serviceStatus: 'NOT_FOUND' });
    expect(err.message).not.toContain(token);
  });
});

describe('what counts as SUCCESS', () => {
  it.each([
    ['lower case', 'success'],
    ['padded', ' SUCCESS'],
    ['empty', ''],
    ['null', null],
    ['a boolean', true],
    ['a number', 1],
  ])('a status that is %s is refused', async (_what, status) => {
    server.reply(() => ({ body: { ...copy(validateTokenOk), status } }));
    const err = await refusal(local.validateToken('tok-1'));
    expect(err.serviceStatus).toBe(typeof status === 'string' ? status : JSON.stringify(status));
  });

  it('no status at all is not a state: the older verify-code answer has none', async () => {
    const body = copy(verifyCodeOk) as unknown as { userDetails: Record<string, unknown> };
    delete body.userDetails.status;
    server.reply(() => ({ body }));
    await expect(local.verifyCode('code-1')).resolves.toMatchObject({ requestId: 'req-e-1' });
  });

  it('a top-level status on secure-info is read too, and a state beside an errorCode is the API error', async () => {
    server.reply(() => ({ body: { ...copy(secureInfoOk), status: 'FAILED' } }));
    expect((await refusal(local.getSecureInfo('tok-1'))).serviceStatus).toBe('FAILED');
    server.reply(() => ({ body: { status: 'FAILED', message: 'Invalid Request', errorCode: '7114' } }));
    await expect(local.getSecureInfo('tok-1')).rejects.toMatchObject({ code: 'API_ERROR', errorCode: '7114' });
  });

  it('a token in the state or message is never repeated', async () => {
    server.reply(() => ({
      body: {
        ...copy(verifyCodeOk),
        message: 'code code-secret-1 refused',
        userDetails: { ...verifyCodeOk.userDetails, status: 'code-secret-1' },
      },
    }));
    const err = await refusal(local.verifyCode('code-secret-1'));
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain('code-secret-1');
  });
});
