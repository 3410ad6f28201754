import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/client/decode.js';
import { OtplessResponseError } from '../../src/index.js';
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

describe('wrong shapes are BAD_RESPONSE naming the field', () => {
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
      (v) => (at(v, 'requestIds', 0).type = 'FAX'),
      'requestIds[0].type: expected one of MOBILE, EMAIL',
    );
    expectBad(
      sendMagicLinkResponse,
      sendMagicLinkOk,
      (v) => delete at(v, 'requestIds', 1).value,
      'requestIds[1].value',
    );
    expectBad(
      sendMagicLinkResponse,
      sendMagicLinkOk,
      (v) => (at(v, 'requestIds', 0).destinationUri = 5),
      'requestIds[0].destinationUri',
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
      (v) => (at(v, 'userDetails', 'identities', 0).verifiedTimestamp = '2025-01-01'),
      'verifiedTimestamp: expected a finite number',
    );
    expectBad(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'identities', 0).methods = ['EMAIL', 3]),
      'userDetails.identities[0].methods[1]',
    );
    expectBad(
      codeVerificationResult,
      verifyCodeOk,
      (v) => (at(v, 'userDetails', 'deviceInfo').cookieEnabled = 'yes'),
      'userDetails.deviceInfo.cookieEnabled',
    );
  });

  it('userInfo', () => {
    expectBad(userInfo, userInfoOk, (v) => (v.email_verified = 'true'), 'email_verified');
    expectBad(
      userInfo,
      userInfoOk,
      (v) => (at(v, 'authentication_details', 'email').mode = 1),
      'authentication_details.email.mode',
    );
    expectBad(userInfo, { name: 'No identity' }, () => undefined, 'expected an object with email or phone_number');
    expectBad(userInfo, [userInfoOk], () => undefined, 'expected an object');
  });

  it('validateToken: verifiedAt is an ISO string here', () => {
    expectBad(
      tokenValidationResult,
      validateTokenOk,
      (v) => (at(v, 'identities', 0).verifiedAt = 1_763_000_000_000),
      'identities[0].verifiedAt: expected a string',
    );
    expectBad(tokenValidationResult, validateTokenOk, (v) => delete v.userId, 'userId');
    expectBad(
      tokenValidationResult,
      validateTokenOk,
      (v) => (at(v, 'secureInfo', 'vpn').result = 'false'),
      'secureInfo.vpn.result',
    );
    expectBad(
      tokenValidationResult,
      validateTokenOk,
      (v) => (at(v, 'network', 'ipLocation').latitude = '19'),
      'network.ipLocation.latitude',
    );
    // JSON.parse turns 1e999 into Infinity.
    const infinite = JSON.stringify(validateTokenOk).replace('"score":0.99', '"score":1e999');
    expect(() => decodeBody('validateToken', 200, infinite, tokenValidationResult)).toThrow(
      'secureInfo.confidence.score: expected a finite number',
    );
  });

  it('secureInfo', () => {
    expectBad(secureInfoResult, secureInfoOk, (v) => (v.secure_info = 'none'), 'secure_info');
    expectBad(
      secureInfoResult,
      secureInfoOk,
      (v) => (at(v, 'secure_info', 'bot').result = false),
      'secure_info.bot.result',
    );
    expectBad(
      secureInfoResult,
      secureInfoOk,
      (v) => delete at(v, 'secure_info', 'tampering').result,
      'secure_info.tampering.result',
    );
  });

  it('sessionDetails: verifiedAt is epoch ms here', () => {
    expectBad(
      sessionDetails,
      sessionDetailsOk,
      (v) => (at(v, 'identities', 0).verifiedAt = '2025-11-22T10:00:00Z'),
      'identities[0].verifiedAt: expected a finite number',
    );
    expectBad(
      sessionDetails,
      sessionDetailsOk,
      (v) => (at(v, 'network', 'ipLocation', 'city').name = 3),
      'network.ipLocation.city.name',
    );
    expectBad(sessionDetails, sessionDetailsOk, (v) => (v.lastActiveAt = 'yesterday'), 'lastActiveAt');
  });

  it('the message names the field, never a value', () => {
    const v = copy(verifyCodeOk) as unknown as Json;
    at(v, 'userDetails').status = { leaked: 'tok-from-verify' };
    try {
      decode(codeVerificationResult, v);
    } catch (e) {
      expect((e as Error).message).toContain('userDetails.status');
      expect((e as Error).message).not.toContain('tok-from-verify');
    }
  });
});
