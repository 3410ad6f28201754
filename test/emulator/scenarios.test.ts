// Every risk scenario shapes secureInfo (validate-token) and secure_info (secure-info) as documented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RISK_SCENARIOS, startEmulator, type Emulator, type RiskScenario } from '../../src/emulator/index.js';
import { logIn, secureInfo, validateToken } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});
afterAll(() => emulator.close());

async function signals(risk: RiskScenario, via: 'link' | 'issue' = 'issue') {
  const token =
    via === 'link'
      ? (await logIn(emulator, { email: 'risk@example.com' }, { risk })).token
      : emulator.issueToken({ risk });
  const [validated, secure] = await Promise.all([validateToken(emulator, token), secureInfo(emulator, token)]);
  expect(validated.status).toBe(200);
  expect(secure.status).toBe(200);
  return { token: validated.body, secure: secure.body };
}

const SECURE_INFO_ONLY = ['virtualMachine', 'locationSpoofing', 'developerTools'];

it('lists the seven scenarios', () => {
  expect(RISK_SCENARIOS).toEqual(['clean', 'vpn', 'bot', 'emulator', 'tampering', 'incognito', 'missing']);
});

describe('clean', () => {
  it('reports nothing detected, in both operations', async () => {
    const { token, secure } = await signals('clean');
    const info = secure.secure_info;
    expect(info).toMatchObject({
      incognito: false,
      confidence: { score: 0.99, revision: expect.any(String) },
      bot: { result: 'notDetected' },
      rootApps: { result: false },
      emulator: { result: false },
      vpn: {
        result: false,
        originCountry: 'IN',
        originTimezone: 'Asia/Kolkata',
        methods: { timezoneMismatch: false, publicVPN: false, auxiliaryMobile: false, osMismatch: false },
      },
      tampering: { result: false, anomalyScore: 0.02 },
      jailbroken: { result: false },
      clonedApp: { result: false },
      factoryReset: { time: '1970-01-01T00:00:00Z', timestamp: 0 },
      frida: { result: false },
      suspectScore: { result: 0 },
      privacySettings: { result: false },
      virtualMachine: { result: false },
      locationSpoofing: { result: false },
      developerTools: { result: false },
    });
    for (const member of SECURE_INFO_ONLY) expect(token.secureInfo).not.toHaveProperty(member);
    expect(token.secureInfo.vpn).toEqual({
      result: false,
      originCountry: 'IN',
      methods: { timezoneMismatch: false, publicVPN: false },
    });
    // Apart from the secure-info-only members, the two operations carry the same signals.
    const { virtualMachine: _a, locationSpoofing: _b, developerTools: _c, vpn: _v1, ...secureRest } = info;
    const { vpn: _v2, ...tokenRest } = token.secureInfo;
    expect(tokenRest).toEqual(secureRest);
  });
});

describe('risky scenarios', () => {
  it('vpn: a public VPN with a time zone mismatch, and an IP abroad', async () => {
    const { token, secure } = await signals('vpn', 'link');
    expect(secure.secure_info.vpn).toMatchObject({
      result: true,
      methods: { publicVPN: true, timezoneMismatch: true },
    });
    expect(token.secureInfo.vpn).toMatchObject({ result: true, methods: { publicVPN: true, timezoneMismatch: true } });
    expect(secure.secure_info.suspectScore.result).toBe(7);
    expect(token.network.ipLocation.country.code).not.toBe(token.secureInfo.vpn.originCountry);
    expect(token.network.timezone).not.toBe(secure.secure_info.vpn.originTimezone);
    expect(secure.secure_info.bot.result).toBe('notDetected');
  });

  it('bot: bot result bad', async () => {
    const { token, secure } = await signals('bot', 'link');
    expect(token.secureInfo.bot.result).toBe('bad');
    expect(secure.secure_info.bot.result).toBe('bad');
    expect(secure.secure_info.suspectScore.result).toBe(7);
    expect(secure.secure_info.vpn.result).toBe(false);
  });

  it('emulator: emulator result true on an Android-like device', async () => {
    const { token, secure } = await signals('emulator', 'link');
    expect(token.secureInfo.emulator.result).toBe(true);
    expect(secure.secure_info.emulator.result).toBe(true);
    expect(token.deviceInfo.platform).toMatch(/^Linux arm/);
    expect(token.deviceInfo.browserInfo.os).toBe('Android');
    expect(token.deviceInfo.userAgent).toContain('Android');
    expect(secure.secure_info.suspectScore.result).toBeGreaterThan(0);
  });

  it('tampering: tampering true with a high anomaly score', async () => {
    const { token, secure } = await signals('tampering');
    expect(token.secureInfo.tampering).toEqual({ result: true, anomalyScore: 0.92 });
    expect(secure.secure_info.tampering.anomalyScore).toBeGreaterThan(0.5);
    expect(secure.secure_info.suspectScore.result).toBe(8);
  });

  it('incognito: incognito true, otherwise clean', async () => {
    const { token, secure } = await signals('incognito');
    expect(token.secureInfo.incognito).toBe(true);
    expect(secure.secure_info).toMatchObject({
      incognito: true,
      bot: { result: 'notDetected' },
      vpn: { result: false },
      tampering: { result: false },
    });
  });
});

describe('missing', () => {
  it('leaves secureInfo out of validate-token and answers secure_info {} on secure-info', async () => {
    const { token, secure } = await signals('missing', 'link');
    expect(token).not.toHaveProperty('secureInfo');
    expect(token.userId).toEqual(expect.any(String));
    expect(secure.status).toBe('SUCCESS');
    expect(secure.secure_info).toEqual({});
    expect(secure.network_info.ip).toBe('127.0.0.1');
    expect(secure.device_info.deviceId).toEqual(expect.any(String));
  });
});

it('differs between every pair of scenarios', async () => {
  const seen = new Set<string>();
  for (const risk of RISK_SCENARIOS) seen.add(JSON.stringify((await signals(risk)).secure.secure_info));
  expect(seen.size).toBe(RISK_SCENARIOS.length);
});
