/**
 * Tolerance as a user meets it: the service sends an answer with one odd member, the client
 * still returns the login, and the risk verdict on what it returned is never milder than on
 * what the service sent.
 */
import { describe, expect, it } from 'vitest';
import { assessRisk } from '../../src/index.js';
import { compactSignals } from '../../src/risk/compact.js';
import { OtplessClient } from '../../src/client/index.js';
import { DROPPED_MEMBERS } from '../../src/wire/types.js';
import type { CaptureServer } from './helpers/captureServer.js';
import { useCaptureClient } from '../helpers/captureClient.js';
import { copy, secureInfoOk, validateTokenOk, verifyCodeOk } from './helpers/fixtures.js';

type Json = Record<string, unknown>;

let server: CaptureServer;
let client: OtplessClient;
useCaptureClient((s, c) => ((server = s), (client = c)));

/** The valid validate-token answer with `edit` applied to its secureInfo. */
function validateTokenWith(edit: (signals: Json) => void): Json {
  const body = copy(validateTokenOk) as unknown as Json;
  edit(body.secureInfo as Json);
  return body;
}

describe('a malformed risk signal: the login goes on, the verdict fails closed', () => {
  it.each([
    ['frida without result', (s: Json) => (s.frida = {}), 'frida'],
    ['frida.result a string', (s: Json) => (s.frida = { result: 'false' }), 'frida'],
    ['confidence without score', (s: Json) => (s.confidence = { revision: 'v1' }), 'confidence'],
    ['bot.result a boolean', (s: Json) => (s.bot = { result: false }), 'bot'],
    ['a vpn method a string', (s: Json) => (s.vpn = { result: false, methods: { publicVPN: 'true' } }), 'vpn'],
  ])('%s: validate-token succeeds, assessRisk blocks it as malformed', async (_name, edit, signal) => {
    const answer = validateTokenWith(edit);
    server.reply(() => ({ body: answer }));
    const result = await client.validateToken('tok-1');

    expect(result.userId).toBe('user-1');
    expect(result.secureInfo).not.toHaveProperty(signal);
    const expected = { action: 'block', reasons: [{ signal: 'malformed', action: 'block', detail: signal }] };
    expect(assessRisk(result.secureInfo)).toMatchObject(expected);
    expect(assessRisk(result)).toMatchObject(expected);
    // The same verdict as on the raw answer, and it survives the compact form kept in a session
    // and a spread copy.
    expect(assessRisk(result.secureInfo)).toEqual(assessRisk(answer));
    expect(assessRisk(compactSignals(result.secureInfo))).toEqual(assessRisk(answer));
    expect(assessRisk({ ...result.secureInfo })).toEqual(assessRisk(answer));
  });

  it('even a signal the policy does not require reads as malformed, never as clean', async () => {
    // frida is not in requiredSignals: absent would allow; dropped must not.
    const answer = validateTokenWith((s) => (s.frida = { result: 1 }));
    server.reply(() => ({ body: answer }));
    const result = await client.validateToken('tok-1');
    const absent = validateTokenWith((s) => delete s.frida);
    expect(assessRisk(absent).action).toBe('allow');
    expect(assessRisk(result.secureInfo).action).toBe('block');
    expect(assessRisk(result.secureInfo, { malformed: 'challenge' }).action).toBe('challenge');
  });

  it('a secure_info signal on the secure-info call', async () => {
    const answer = copy(secureInfoOk) as unknown as Json;
    (answer.secure_info as Json).developerTools = { result: null };
    server.reply(() => ({ body: answer }));
    const result = await client.getSecureInfo('tok-1');
    expect(result.secure_info).not.toHaveProperty('developerTools');
    expect(assessRisk(result)).toEqual(assessRisk(answer));
    expect(assessRisk(result).reasons).toContainEqual({
      signal: 'malformed',
      action: 'block',
      detail: 'developerTools',
    });
  });

  it('a secureInfo that is not an object: dropped from the result, judged malformed', async () => {
    const answer = { ...(copy(validateTokenOk) as unknown as Json), secureInfo: 'unavailable' };
    server.reply(() => ({ body: answer }));
    const result = await client.validateToken('tok-1');
    expect(result).not.toHaveProperty('secureInfo');
    expect(assessRisk(result)).toEqual(assessRisk(answer));
    expect(assessRisk(result)).toMatchObject({ action: 'block', reasons: [{ signal: 'malformed' }] });
  });
});

describe('a malformed detail: the login goes on without it', () => {
  it('a device field, a location and an unknown identity type on verify-code', async () => {
    const answer = copy(verifyCodeOk) as unknown as { userDetails: Json & { identities: Json[] } };
    (answer.userDetails.deviceInfo as Json).screenWidth = 'wide';
    answer.userDetails.network = { ip: '203.0.113.7', ipLocation: { latitude: 'north' } };
    answer.userDetails.identities.push({ identityType: 'PASSKEY', identityValue: 'pk-1' });
    server.reply(() => ({ body: answer }));

    const { userDetails } = await client.verifyCode('code-1');
    expect(userDetails.token).toBe('tok-from-verify');
    expect(userDetails.identities.map((i) => i.identityType)).toEqual(['EMAIL']);
    expect(userDetails.deviceInfo).not.toHaveProperty('screenWidth');
    expect(userDetails.deviceInfo?.platform).toBe('MacIntel');
    expect(userDetails.network).toEqual({ ip: '203.0.113.7', ipLocation: { [DROPPED_MEMBERS]: ['latitude'] } });
    expect(JSON.stringify(userDetails.network)).toBe('{"ip":"203.0.113.7","ipLocation":{}}');
  });

  it('but not what the login needs: a token of the wrong type is BAD_RESPONSE', async () => {
    const answer = copy(verifyCodeOk) as unknown as { userDetails: Json };
    answer.userDetails.token = 42;
    server.reply(() => ({ body: answer }));
    await expect(client.verifyCode('code-1')).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('userDetails.token: expected a string'),
    });
  });
});
