/**
 * What the profile takes from the spec's fields beyond identities: when the person
 * authenticated, the family name behind an empty last name, and the risk signals an empty
 * `secure_info` must not hide. Answers read by the client from a real local server.
 */
import { describe, expect, it } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import { buildProfile, riskSignalsOf } from '../../src/strategy/profile.js';
import type { CaptureServer } from '../client/helpers/captureServer.js';
import { useCaptureClient } from '../helpers/captureClient.js';
import {
  copy,
  secureInfoOk,
  sessionDetailsOk,
  userInfoOk,
  validateTokenOk,
  verifyCodeOk,
} from '../client/helpers/fixtures.js';

let server: CaptureServer;
let client: OtplessClient;
useCaptureClient((s, c) => ((server = s), (client = c)));

async function answer<T>(call: () => Promise<T>, body: unknown): Promise<T> {
  server.reply(() => ({ body }));
  return call();
}

describe('profile.authenticatedAt: auth_time, completedAt, verifiedAt, startedAt', () => {
  it("userInfo's auth_time (epoch seconds) comes first", async () => {
    const verification = await answer(() => client.verifyCode('c'), verifyCodeOk);
    const userInfo = await answer(() => client.getUserInfo('t'), { ...userInfoOk, auth_time: '1763000005' });
    const profile = buildProfile({ verification, userInfo }, undefined);
    expect(profile?.authenticatedAt).toEqual(new Date(1_763_000_005_000));
  });

  it("verify-code's completedAt, when userInfo gives none", async () => {
    const verification = await answer(() => client.verifyCode('c'), verifyCodeOk);
    expect(buildProfile({ verification }, undefined)?.authenticatedAt).toEqual(new Date(1_763_000_000_000));
  });

  it('the latest verifiedAt of a verified identity, for a token login', async () => {
    const tokenValidation = await answer(() => client.validateToken('t'), validateTokenOk);
    expect(buildProfile({ tokenValidation }, undefined)?.authenticatedAt).toEqual(new Date('2025-11-22T10:00:00Z'));
  });

  it("the session's startedAt and lastActiveAt, for a login by session details", async () => {
    const sessionDetails = await answer(() => client.getSessionDetails('s'), sessionDetailsOk);
    const tokenValidation = await answer(() => client.validateToken('t'), validateTokenOk);
    const noVerifiedAt = copy(sessionDetailsOk);
    delete noVerifiedAt.identities[0]!.verifiedAt;
    const session = await answer(() => client.getSessionDetails('s'), noVerifiedAt);
    // Session identities carry no `verified`: a profile needs another answer to vouch for one.
    const profile = buildProfile({ tokenValidation, sessionDetails }, undefined);
    expect(profile?.lastActiveAt).toEqual(new Date(1_763_000_100_000));
    expect(
      buildProfile(
        {
          tokenValidation: {
            ...tokenValidation,
            identities: tokenValidation.identities.map(({ verifiedAt: _v, ...i }) => i),
          },
          sessionDetails: session,
        },
        undefined,
      )?.authenticatedAt,
    ).toEqual(new Date(1_763_000_000_000));
  });

  it('a time that does not read is left out, never guessed', async () => {
    const verification = await answer(() => client.verifyCode('c'), {
      ...verifyCodeOk,
      userDetails: {
        ...verifyCodeOk.userDetails,
        completedAt: undefined,
        identities: [{ ...verifyCodeOk.userDetails.identities[0], verifiedTimestamp: undefined }],
      },
    });
    const userInfo = await answer(() => client.getUserInfo('t'), { ...userInfoOk, auth_time: 'yesterday' });
    const profile = buildProfile({ verification, userInfo }, undefined);
    expect(profile).toBeDefined();
    expect(profile?.authenticatedAt).toBeUndefined();
  });
});

describe('profile names and signals', () => {
  it('an empty last_name does not hide family_name', async () => {
    const verification = await answer(() => client.verifyCode('c'), verifyCodeOk);
    const userInfo = await answer(() => client.getUserInfo('t'), {
      ...userInfoOk,
      last_name: '',
      family_name: 'Byron',
    });
    expect(buildProfile({ verification, userInfo }, undefined)?.name).toEqual({
      givenName: 'Ada',
      familyName: 'Byron',
    });
  });

  it("an empty secure_info ({}: no signals collected) does not shadow validate-token's secureInfo", async () => {
    const tokenValidation = await answer(() => client.validateToken('t'), validateTokenOk);
    const secureInfo = await answer(() => client.getSecureInfo('t'), { ...secureInfoOk, secure_info: {} });
    const profile = buildProfile({ tokenValidation, secureInfo }, undefined);
    expect(profile?.secureInfo).toEqual(validateTokenOk.secureInfo);
    expect(riskSignalsOf({ tokenValidation, secureInfo })).toBe(tokenValidation.secureInfo);
  });

  it('a secure_info whose signals were all dropped as malformed still wins (it reads as malformed)', async () => {
    const tokenValidation = await answer(() => client.validateToken('t'), validateTokenOk);
    const secureInfo = await answer(() => client.getSecureInfo('t'), { ...secureInfoOk, secure_info: { frida: {} } });
    expect(Object.keys(secureInfo.secure_info)).toEqual([]);
    expect(riskSignalsOf({ tokenValidation, secureInfo })).toBe(secureInfo.secure_info);
  });
});
