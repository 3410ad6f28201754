import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/client/decode.js';
import { DROPPED_MEMBERS } from '../../src/wire/types.js';
import { OtplessResponseError } from '../../src/client/index.js';
import {
  codeVerificationResult,
  secureInfoResult,
  sendMagicLinkResponse,
  sessionDetails,
  tokenValidationResult,
  userInfo,
} from '../../src/client/shapes/index.js';
import type { Mismatch } from '../../src/client/shapes/check.js';

/** Any shape, whatever type it proves. */
type Shape = (value: unknown) => Mismatch | undefined;
import {
  copy,
  secureInfoOk,
  sendMagicLinkOk,
  sessionDetailsOk,
  userInfoOk,
  validateTokenOk,
  verifyCodeOk,
} from './helpers/fixtures.js';

type Json = Record<string, unknown>;
const decode = (shape: Shape, value: unknown) => decodeBody('verifyCode', 200, JSON.stringify(value), shape);

/** Applies `edit` to a deep copy of `value` and expects BAD_RESPONSE naming `path`. */
function expectBad(shape: Shape, value: unknown, edit: (v: Json) => void, path: string) {
  const v = copy(value) as Json;
  edit(v);
  let err: unknown;
  try {
    decode(shape, v);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(OtplessResponseError);
  expect((err as Error).message).toContain(path);
}

const at = (v: Json, ...keys: (string | number)[]): Json => keys.reduce<Json>((o, k) => o[k] as Json, v);

/**
 * Applies `edit` to a deep copy of `value` and expects the answer accepted without the member
 * at `path` (the last key is dropped from its object, and listed under DROPPED_MEMBERS there),
 * everything else as it was.
 */
function expectDropped(shape: Shape, value: unknown, edit: (v: Json) => void, path: (string | number)[]) {
  const v = copy(value) as Json;
  edit(v);
  const result = decode(shape, v) as Json;
  const parent = at(result, ...path.slice(0, -1));
  const key = path[path.length - 1] as string;
  expect(parent).not.toHaveProperty(key);
  expect((parent as { [DROPPED_MEMBERS]?: string[] })[DROPPED_MEMBERS]).toEqual([key]);
  // Everything else is as it was.
  const expected = copy(value) as Json;
  delete at(expected, ...path.slice(0, -1))[key];
  expect(JSON.parse(JSON.stringify(result))).toEqual(expected);
}

describe('valid answers pass unchanged', () => {
  it.each([
    ['sendMagicLink', sendMagicLinkResponse, sendMagicLinkOk],
    ['verifyCode', codeVerificationResult, verifyCodeOk],
    ['userInfo', userInfo, userInfoOk],
    ['validateToken', tokenValidationResult, validateTokenOk],
    ['secureInfo', secureInfoResult, secureInfoOk],
    ['sessionDetails', sessionDetails, sessionDetailsOk],
  ] as [string, Shape, unknown][])('%s', (_name, shape, value) => {
    expect(decode(shape, value)).toEqual(value);
    expect(decode(shape, { ...(value as Json), extra: { any: ['thing'] } })).toMatchObject({
      extra: { any: ['thing'] },
    });
  });

  it('validate-token without secureInfo (no secure SDK) and with secureInfo null', () => {
    const { secureInfo: _omit, ...without } = copy(validateTokenOk);
    expect(decode(tokenValidationResult, without)).toEqual(without);
    expect(decode(tokenValidationResult, { ...without, secureInfo: null })).toEqual(without);
  });

  it('userInfo with only a phone number', () => {
    expect(decode(userInfo, { phone_number: '+919876543210' })).toEqual({ phone_number: '+919876543210' });
  });

  it('session ipLocation may have empty city and subdivisions objects', () => {
    expect(at(decode(sessionDetails, sessionDetailsOk) as Json, 'network', 'ipLocation').city).toEqual({});
  });
});

describe('what the login needs stays strict: BAD_RESPONSE naming the field', () => {
  it('sendMagicLink', () => {
    expectBad(sendMagicLinkResponse, sendMagicLinkOk, (v) => delete v.requestIds, 'requestIds');
    expectBad(
      sendMagicLinkResponse,
      sendMagicLinkOk,
      (v) => (v.requestIds = []),
      'requestIds: expected an array of at least 1',
    );
    expectBad(
      sendMagicLinkResponse,
      sendMagicLinkOk,
      (v) => (at(v, 'requestIds', 0).type = 42),
      'requestIds[0].type: expected one of MOBILE, EMAIL',
    );
    // An unknown type is skipped (as unknown identity types are); none known left is no send.
    expectBad(
      sendMagicLinkResponse,
      sendMagicLinkOk,
      (v) => (v.requestIds = [{ type: 'FAX', value: 'r' }]),
      'requestIds: expected an array of at least 1 item(s) of a known kind',
    );
    expectBad(
      sendMagicLinkResponse,
      sendMagicLinkOk,
      (v) => delete at(v, 'requestIds', 1).value,
      'requestIds[1].value',
    );
  });

  it('verifyCode', () => {
    expectBad(codeVerificationResult, verifyCodeOk, (v) => delete v.requestId, 'requestId');
    expectBad(codeVerificationResult, verifyCodeOk, (v) => delete at(v, 'userDetails').token, 'userDetails.token');
    expectBad(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails').identities = []),
      'userDetails.identities',
    );
    expectBad(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'identities', 0).identityValue = null),
      'userDetails.identities[0].identityValue',
    );
    expectBad(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'identities', 0).identityType = 7),
      'userDetails.identities[0].identityType: expected one of MOBILE, EMAIL',
    );
    // "false" is not false: whether an identity is verified is never guessed.
    expectBad(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'identities', 0).verified = 'false'),
      'userDetails.identities[0].verified: expected a boolean',
    );
  });

  it('identities of an unknown type are skipped, but one known identity must remain', () => {
    const v = copy(verifyCodeOk) as unknown as Json;
    const identities = at(v, 'userDetails').identities as Json[];
    identities.unshift({ identityType: 'PASSKEY', identityValue: 'pk-1', verified: true });
    const result = decode(codeVerificationResult, v) as Json;
    expect(at(result, 'userDetails').identities).toEqual(verifyCodeOk.userDetails.identities);
    expectBad(
      codeVerificationResult,
      verifyCodeOk,
      (w) => (at(w, 'userDetails').identities = [{ identityType: 'PASSKEY', identityValue: 'pk-1' }]),
      'userDetails.identities: expected an array of at least 1 item(s) of a known kind',
    );
    expectBad(
      sessionDetails,
      sessionDetailsOk,
      (w) => (w.identities = [{ identityType: 'WHATSAPP_ID', identityValue: 'x' }]),
      'identities: expected an array of at least 1',
    );
  });

  it('userInfo', () => {
    expectBad(userInfo, { name: 'No identity' }, () => undefined, 'expected an object with email or phone_number');
    expectBad(userInfo, { email: 42, name: 'Only a broken e-mail' }, () => undefined, 'email or phone_number');
    expectBad(userInfo, [userInfoOk], () => undefined, 'expected an object');
  });

  it('validateToken', () => {
    expectBad(tokenValidationResult, validateTokenOk, (v) => delete v.userId, 'userId');
    expectBad(tokenValidationResult, validateTokenOk, (v) => (v.token = 1), 'token: expected a string');
  });

  it('secureInfo: secure_info must be an object', () => {
    expectBad(secureInfoResult, secureInfoOk, (v) => (v.secure_info = 'none'), 'secure_info');
    expectBad(secureInfoResult, secureInfoOk, (v) => delete v.secure_info, 'secure_info');
  });

  it('sessionDetails', () => {
    expectBad(sessionDetails, sessionDetailsOk, (v) => delete v.sessionToken, 'sessionToken');
  });

  it('the message names the field, never a value', () => {
    const v = copy(verifyCodeOk) as unknown as Json;
    at(v, 'userDetails').token = { leaked: 'tok-from-verify' };
    try {
      decode(codeVerificationResult, v);
      expect.fail('accepted');
    } catch (e) {
      expect((e as Error).message).toContain('userDetails.token');
      expect((e as Error).message).not.toContain('tok-from-verify');
    }
  });
});

describe('tolerant where it is safe: a malformed optional member is dropped and reads as absent', () => {
  it('a device, network or location field', () => {
    expectDropped(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'deviceInfo').cookieEnabled = 'yes'),
      ['userDetails', 'deviceInfo', 'cookieEnabled'],
    );
    expectDropped(tokenValidationResult, validateTokenOk, (v) => (at(v, 'network', 'ipLocation').latitude = '19'), [
      'network',
      'ipLocation',
      'latitude',
    ]);
    expectDropped(sessionDetails, sessionDetailsOk, (v) => (at(v, 'network', 'ipLocation', 'city').name = 3), [
      'network',
      'ipLocation',
      'city',
      'name',
    ]);
    expectDropped(tokenValidationResult, validateTokenOk, (v) => (at(v, 'network').ipLocation = 'Mumbai'), [
      'network',
      'ipLocation',
    ]);
    expectDropped(secureInfoResult, secureInfoOk, (v) => (at(v, 'device_info').browserInfo = ['Chrome']), [
      'device_info',
      'browserInfo',
    ]);
  });

  it('an identity detail, a time, a status or a message', () => {
    expectDropped(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'identities', 0).verifiedTimestamp = '2025-01-01'),
      ['userDetails', 'identities', 0, 'verifiedTimestamp'],
    );
    expectDropped(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'identities', 0).methods = ['EMAIL', 3]),
      ['userDetails', 'identities', 0, 'methods'],
    );
    expectDropped(
      tokenValidationResult,
      validateTokenOk,
      (v) => (at(v, 'identities', 0).verifiedAt = 1_763_000_000_000),
      ['identities', 0, 'verifiedAt'],
    );
    expectDropped(
      sessionDetails,
      sessionDetailsOk,
      (v) => (at(v, 'identities', 0).verifiedAt = '2025-11-22T10:00:00Z'),
      ['identities', 0, 'verifiedAt'],
    );
    expectDropped(sessionDetails, sessionDetailsOk, (v) => (v.lastActiveAt = 'yesterday'), ['lastActiveAt']);
    expectDropped(codeVerificationResult, verifyCodeOk, (v) => (v.message = { ok: true }), ['message']);
    expectDropped(sendMagicLinkResponse, sendMagicLinkOk, (v) => (at(v, 'requestIds', 0).destinationUri = 5), [
      'requestIds',
      0,
      'destinationUri',
    ]);
  });

  it('userInfo details', () => {
    expectDropped(userInfo, userInfoOk, (v) => (v.email_verified = 'true'), ['email_verified']);
    expectDropped(userInfo, userInfoOk, (v) => (at(v, 'authentication_details', 'email').mode = 1), [
      'authentication_details',
      'email',
      'mode',
    ]);
  });

  it('a risk signal is dropped whole when a member assessRisk judges is malformed', () => {
    expectDropped(tokenValidationResult, validateTokenOk, (v) => (at(v, 'secureInfo', 'vpn').result = 'false'), [
      'secureInfo',
      'vpn',
    ]);
    expectDropped(
      tokenValidationResult,
      validateTokenOk,
      (v) => (at(v, 'secureInfo', 'vpn', 'methods').publicVPN = 'true'),
      ['secureInfo', 'vpn'],
    );
    expectDropped(secureInfoResult, secureInfoOk, (v) => (at(v, 'secure_info', 'bot').result = false), [
      'secure_info',
      'bot',
    ]);
    expectDropped(secureInfoResult, secureInfoOk, (v) => delete at(v, 'secure_info', 'tampering').result, [
      'secure_info',
      'tampering',
    ]);
    expectDropped(secureInfoResult, secureInfoOk, (v) => (at(v, 'secure_info', 'tampering').anomalyScore = 'low'), [
      'secure_info',
      'tampering',
    ]);
    expectDropped(secureInfoResult, secureInfoOk, (v) => (at(v, 'secure_info', 'factoryReset').timestamp = '0'), [
      'secure_info',
      'factoryReset',
    ]);
    expectDropped(secureInfoResult, secureInfoOk, (v) => (at(v, 'secure_info').incognito = 0), [
      'secure_info',
      'incognito',
    ]);
    // JSON.parse turns 1e999 into Infinity.
    const infinite = JSON.stringify(validateTokenOk).replace('"score":0.99', '"score":1e999');
    const result = decodeBody('validateToken', 200, infinite, tokenValidationResult) as Json;
    expect(at(result, 'secureInfo')).not.toHaveProperty('confidence');
    expect((at(result, 'secureInfo') as { [DROPPED_MEMBERS]?: string[] })[DROPPED_MEMBERS]).toEqual(['confidence']);
  });

  it('a member of a risk signal that assessRisk does not judge is dropped alone', () => {
    expectDropped(tokenValidationResult, validateTokenOk, (v) => (at(v, 'secureInfo', 'vpn').originCountry = 91), [
      'secureInfo',
      'vpn',
      'originCountry',
    ]);
    expectDropped(tokenValidationResult, validateTokenOk, (v) => (at(v, 'secureInfo', 'confidence').revision = 1.1), [
      'secureInfo',
      'confidence',
      'revision',
    ]);
  });

  it('a secureInfo that is not an object is dropped (it then reads as malformed)', () => {
    expectDropped(tokenValidationResult, validateTokenOk, (v) => (v.secureInfo = 'none'), ['secureInfo']);
  });
});
