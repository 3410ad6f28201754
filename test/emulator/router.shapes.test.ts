// Each endpoint answers the fields spec section 2 lists for its operation, and all describe one login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_WHATSAPP_NUMBER, startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  click,
  codeOf,
  lastEntry,
  logIn,
  SAFARI_UA,
  secureInfo,
  sendLink,
  sessionDetails,
  userInfo,
  validateToken,
  verify,
} from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});
afterAll(() => emulator.close());

const BASIC_DEVICE_KEYS = [
  'userAgent',
  'platform',
  'vendor',
  'language',
  'cookieEnabled',
  'screenWidth',
  'screenHeight',
  'screenColorDepth',
  'devicePixelRatio',
];
const SESSION_DEVICE_KEYS = [
  ...BASIC_DEVICE_KEYS,
  'browser',
  'connection',
  'timezoneOffset',
  'cpuArchitecture',
  'fontFamily',
];
const FULL_DEVICE_KEYS = [...SESSION_DEVICE_KEYS, 'deviceId', 'browserInfo'];

describe('send magic link (4.1)', () => {
  it('answers one request entry per channel sharing one request id, destinationUri on MOBILE only', async () => {
    const { status, body } = await sendLink(emulator, { mobile_number: '919876543210', email: 'jane@example.com' });
    expect(status).toBe(200);
    expect(body.requestIds).toHaveLength(2);
    const [mobile, email] = body.requestIds;
    expect(mobile).toEqual({
      type: 'MOBILE',
      value: expect.any(String),
      destinationUri: `https://wa.me/${EMULATOR_WHATSAPP_NUMBER}`,
    });
    expect(email).toEqual({ type: 'EMAIL', value: mobile.value });
    expect(mobile.value.length).toBeGreaterThanOrEqual(20);
  });
});

describe('verify code (2.9)', () => {
  it('answers requestId, message and userDetails with CodeIdentity, ip-only network and basic device', async () => {
    const sent = await sendLink(emulator, { email: 'Code.Shape@Example.com' });
    const entry = lastEntry(emulator);
    const code = codeOf(await click(entry.link, { userAgent: SAFARI_UA }));
    const before = emulator.now();
    const { status, body } = await verify(emulator, code);
    expect(status).toBe(200);
    expect(body.requestId).toBe(sent.body.requestIds[0].value);
    expect(body.message).toBe('success');
    const details = body.userDetails;
    expect(details.token).toEqual(expect.any(String));
    expect(details.status).toBe('SUCCESS');
    expect(details.completedAt).toBeGreaterThanOrEqual(before);
    expect(details.identities).toEqual([
      {
        identityType: 'EMAIL',
        identityValue: 'code.shape@example.com',
        channel: 'MAGIC_LINK',
        methods: ['EMAIL'],
        verified: true,
        verifiedTimestamp: details.completedAt,
      },
    ]);
    expect(details.network).toEqual({ ip: '127.0.0.1' });
    expect(Object.keys(details.deviceInfo).sort()).toEqual([...BASIC_DEVICE_KEYS].sort());
    expect(details.deviceInfo.userAgent).toBe(SAFARI_UA);
  });

  it('uses WHATSAPP as the method of a mobile login', async () => {
    const { verified } = await logIn(emulator, { mobile_number: '14155550100' });
    expect(verified.userDetails.identities).toEqual([
      expect.objectContaining({
        identityType: 'MOBILE',
        identityValue: '14155550100',
        methods: ['WHATSAPP'],
        channel: 'MAGIC_LINK',
        verified: true,
      }),
    ]);
  });
});

describe('token operations describe the same login', () => {
  let token: string;
  let verified: Awaited<ReturnType<typeof logIn>>['verified'];
  let sessionToken: string;

  beforeAll(async () => {
    ({
      token,
      verified,
      entry: { sessionToken },
    } = await logIn(emulator, { email: 'jane.doe@example.com' }, { userAgent: SAFARI_UA }));
  });

  it('validate token (2.7): TokenIdentity with ISO verifiedAt, full network and device, secureInfo', async () => {
    const { status, body } = await validateToken(emulator, token);
    expect(status).toBe(200);
    expect(body.token).toBe(token);
    expect(body.status).toBe('SUCCESS');
    expect(body.userId).toMatch(/^EM-[\w-]{22}$/);
    expect(new Date(body.timestamp).getTime()).toBe(verified.userDetails.completedAt);
    expect(body.identities).toEqual([
      {
        identityType: 'EMAIL',
        identityValue: 'jane.doe@example.com',
        channel: 'OAUTH',
        methods: ['EMAIL'],
        verified: true,
        verifiedAt: new Date(verified.userDetails.completedAt).toISOString(),
      },
    ]);
    expect(body.network.ip).toBe('127.0.0.1');
    expect(body.network.timezone).toBe('Asia/Kolkata');
    const location = body.network.ipLocation;
    expect(location.accuracyRadius).toEqual(expect.any(Number));
    expect(location.asn).toEqual({
      asn: expect.stringMatching(/^AS\d+$/),
      name: expect.any(String),
      network: '127.0.0.0/24',
    });
    expect(location.country).toEqual({ code: 'IN', name: 'India' });
    expect(location.continent).toEqual({ code: 'AS' });
    expect(location).toHaveProperty('city.name');
    expect(location).toHaveProperty('subdivisions.code');
    expect(location.latitude).toEqual(expect.any(Number));
    expect(location.longitude).toEqual(expect.any(Number));
    expect(location).not.toHaveProperty('postalCode');
    expect(Object.keys(body.deviceInfo).sort()).toEqual([...FULL_DEVICE_KEYS].sort());
    expect(body.deviceInfo.browserInfo).toEqual({
      browserName: 'Safari',
      os: 'Mac OS',
      osVersion: '10.15.7',
      device: 'Desktop',
    });
    expect(body.deviceInfo.vendor).toBe('Apple Computer, Inc.');
    expect(body.secureInfo).toBeDefined();
    expect(body.secureInfo).not.toHaveProperty('virtualMachine');
  });

  it('secure info (4.5): snake_case keys, network_info and device_info with extended browserInfo', async () => {
    const { status, body } = await secureInfo(emulator, token);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['device_info', 'network_info', 'secure_info', 'status']);
    expect(body.status).toBe('SUCCESS');
    expect(body.network_info.ip).toBe('127.0.0.1');
    expect(body.network_info.ipLocation.asn.asn).toMatch(/^AS\d+$/);
    expect(body.network_info.ipLocation.accuracyRadius).toEqual(expect.any(Number));
    expect(Object.keys(body.device_info).sort()).toEqual([...FULL_DEVICE_KEYS].sort());
    expect(body.device_info.browserInfo).toEqual({
      browserName: 'Safari',
      os: 'Mac OS',
      osVersion: '10.15.7',
      device: 'Desktop',
      browserMajorVersion: '17',
      browserFullVersion: '17.5',
      userAgent: SAFARI_UA,
    });
    const validated = await validateToken(emulator, token);
    expect(body.device_info.deviceId).toBe(validated.body.deviceInfo.deviceId);
  });

  it('userInfo (2.2): name, email, email_verified, auth_time and authentication_details', async () => {
    const { status, body } = await userInfo(emulator, token);
    expect(status).toBe(200);
    expect(body).toEqual({
      name: 'Jane Doe',
      first_name: 'Jane',
      last_name: 'Doe',
      family_name: 'Doe',
      email: 'jane.doe@example.com',
      email_verified: true,
      auth_time: String(Math.floor(verified.userDetails.completedAt / 1000)),
      authentication_details: { email: { email: 'jane.doe@example.com', mode: 'EMAIL', auth_state: 'verified' } },
    });
  });

  it('session details (2.8): SessionIdentity with epoch verifiedAt and name, no verified; trimmed device and network', async () => {
    const validated = await validateToken(emulator, token);
    const { status, body } = await sessionDetails(emulator, sessionToken);
    expect(status).toBe(200);
    expect(body.sessionToken).toBe(sessionToken);
    expect(body.userId).toBe(validated.body.userId);
    expect(body.startedAt).toBe(verified.userDetails.completedAt);
    expect(body.lastActiveAt).toBeGreaterThanOrEqual(body.startedAt);
    expect(body.identities).toEqual([
      {
        identityType: 'EMAIL',
        identityValue: 'jane.doe@example.com',
        channel: 'EMAIL_LOGIN',
        methods: ['EMAIL'],
        verifiedAt: verified.userDetails.completedAt,
        name: 'Jane Doe',
      },
    ]);
    expect(Object.keys(body.deviceInfo).sort()).toEqual([...SESSION_DEVICE_KEYS].sort());
    expect(body.network.ip).toBe('127.0.0.1');
    expect(body.network.ipLocation.postalCode).toEqual(expect.any(String));
    expect(body.network.ipLocation).not.toHaveProperty('accuracyRadius');
    expect(body.network.ipLocation).not.toHaveProperty('asn');
  });
});

describe('userInfo of a mobile login', () => {
  it('splits the number and leaves out e-mail members', async () => {
    const { token } = await logIn(emulator, { mobile_number: '919876543210' });
    const { status, body } = await userInfo(emulator, token);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'User 3210',
      phone_number: '+919876543210',
      national_phone_number: '9876543210',
      country_code: '+91',
      email_verified: false,
      authentication_details: {
        phone: { mode: 'WHATSAPP', phone_number: '9876543210', country_code: '+91', auth_state: 'verified' },
      },
    });
    expect(body).not.toHaveProperty('email');
    expect(body.authentication_details).not.toHaveProperty('email');
  });
});
