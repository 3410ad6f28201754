/**
 * Times and integers as the spec types them, read over a real socket: an optional member that
 * does not read (a zone-less time, a fractional epoch, a fractional screen size) is dropped and
 * listed, the same rule for every operation; a risk signal with such a time reads as malformed.
 */
import { describe, expect, it } from 'vitest';
import { assessRisk } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { DROPPED_MEMBERS } from '../../src/wire/types.js';
import type { CaptureServer } from './helpers/captureServer.js';
import { useCaptureClient } from '../helpers/captureClient.js';
import { copy, secureInfoOk, sessionDetailsOk, validateTokenOk, verifyCodeOk } from './helpers/fixtures.js';

type Json = Record<string, unknown>;
let server: CaptureServer;
let client: OtplessClient;
useCaptureClient((s, c) => ((server = s), (client = c)));

const dropped = (o: unknown) => (o as { [DROPPED_MEMBERS]?: string[] })[DROPPED_MEMBERS];

describe('strict times: what does not read is dropped and listed', () => {
  it('validate-token: a zone-less timestamp and verifiedAt are dropped', async () => {
    const body = copy(validateTokenOk) as unknown as Json;
    body.timestamp = '2025-11-22T10:00:00';
    (body.identities as Json[])[0]!.verifiedAt = '2025-02-30T10:00:00Z';
    server.reply(() => ({ body }));
    const r = await client.validateToken('tok-1');
    expect(r.timestamp).toBeUndefined();
    expect(dropped(r)).toEqual(['timestamp']);
    expect(r.identities[0]!.verifiedAt).toBeUndefined();
    expect(dropped(r.identities[0])).toEqual(['verifiedAt']);
  });

  it('verify-code: a fractional completedAt and verifiedTimestamp are dropped', async () => {
    const body = copy(verifyCodeOk) as unknown as { userDetails: Json & { identities: Json[] } };
    body.userDetails.completedAt = 1_763_000_000_000.5;
    body.userDetails.identities[0]!.verifiedTimestamp = '1763000000000';
    server.reply(() => ({ body }));
    const r = await client.verifyCode('code-1');
    expect(r.userDetails.completedAt).toBeUndefined();
    expect(dropped(r.userDetails)).toEqual(['completedAt']);
    expect(dropped(r.userDetails.identities[0])).toEqual(['verifiedTimestamp']);
  });

  it('session details: negative startedAt and fractional lastActiveAt are dropped', async () => {
    const body = { ...copy(sessionDetailsOk), startedAt: -1, lastActiveAt: 1.5 };
    server.reply(() => ({ body }));
    const r = await client.getSessionDetails('sess-1');
    expect(dropped(r)).toEqual(['startedAt', 'lastActiveAt']);
  });
});

describe('integers: a fractional screen size, offset or radius is dropped', () => {
  it('device and network members the spec types as integer', async () => {
    const body = copy(secureInfoOk) as unknown as { device_info: Json; network_info: { ipLocation: Json } };
    body.device_info.screenWidth = 1280.5;
    body.device_info.timezoneOffset = -330.25;
    body.device_info.devicePixelRatio = 1.5; // a number, not an integer: kept
    body.network_info.ipLocation.accuracyRadius = 20.1;
    server.reply(() => ({ body }));
    const r = await client.getSecureInfo('tok-1');
    expect(dropped(r.device_info)).toEqual(['screenWidth', 'timezoneOffset']);
    expect(r.device_info?.devicePixelRatio).toBe(1.5);
    expect(dropped(r.network_info?.ipLocation)).toEqual(['accuracyRadius']);
  });
});

describe('the risk verdict fails closed on a time that does not read', () => {
  it.each([
    ['a zone-less factoryReset.time', { time: '2025-11-21T10:00:00' }],
    ['a fractional factoryReset.timestamp', { timestamp: 1763719200.5 }],
  ])('%s: the signal reads as malformed and the login is blocked', async (_what, factoryReset) => {
    const body = copy(secureInfoOk) as unknown as { secure_info: Json };
    body.secure_info.factoryReset = factoryReset;
    server.reply(() => ({ body }));
    const r = await client.getSecureInfo('tok-1');
    expect(dropped(r.secure_info)).toEqual(['factoryReset']);
    expect(assessRisk(r)).toMatchObject({
      action: 'block',
      reasons: [{ signal: 'malformed', action: 'block', detail: 'factoryReset' }],
    });
  });
});
