import type {
  CodeVerificationResult,
  SecureInfoResult,
  SendMagicLinkResponse,
  SessionDetails,
  TokenValidationResult,
  UserInfo,
} from '../../../src/wire/types.js';

/** Valid answers of every operation, as spec section 2 describes them (deep-copied on use). */

const basicDevice = {
  userAgent: 'Mozilla/5.0',
  platform: 'MacIntel',
  vendor: 'Google Inc.',
  language: 'en-IN',
  cookieEnabled: true,
  screenWidth: 1512,
  screenHeight: 982,
  screenColorDepth: 30,
  devicePixelRatio: 2,
};

const fullDevice = {
  ...basicDevice,
  browser: 'Chrome',
  connection: '4g',
  timezoneOffset: -330,
  cpuArchitecture: '8',
  fontFamily: 'Times New Roman',
  deviceId: 'dev-1',
  browserInfo: { browserName: 'Chrome', os: 'Mac OS', osVersion: '10.15.7', device: 'desktop' },
};

const network = {
  ip: '203.0.113.7',
  timezone: 'Asia/Kolkata',
  ipLocation: {
    accuracyRadius: 20,
    city: { name: 'Mumbai' },
    subdivisions: { code: 'MH', name: 'Maharashtra' },
    country: { code: 'IN', name: 'India' },
    continent: { code: 'AS' },
    latitude: 19.07,
    longitude: 72.87,
    asn: { asn: 'AS64500', name: 'Example Net', network: '203.0.113.0/24' },
  },
};

const secureInfo = {
  incognito: false,
  confidence: { score: 0.99, revision: 'v1.1' },
  bot: { result: 'notDetected' },
  rootApps: { result: false },
  emulator: { result: false },
  vpn: { result: false, originCountry: 'IN', methods: { timezoneMismatch: false, publicVPN: false } },
  tampering: { result: false, anomalyScore: 0.01 },
  jailbroken: { result: false },
  clonedApp: { result: false },
  factoryReset: { time: '1970-01-01T00:00:00Z', timestamp: 0 },
  frida: { result: false },
  suspectScore: { result: 0 },
  privacySettings: { result: false },
};

export const sendMagicLinkOk: SendMagicLinkResponse = {
  requestIds: [
    { type: 'MOBILE', value: 'req-m-1', destinationUri: 'https://wa.me/910000000000' },
    { type: 'EMAIL', value: 'req-e-1' },
  ],
};

export const verifyCodeOk: CodeVerificationResult = {
  requestId: 'req-e-1',
  message: 'Code verified successfully',
  userDetails: {
    token: 'tok-from-verify',
    status: 'SUCCESS',
    completedAt: 1_763_000_000_000,
    identities: [
      {
        identityType: 'EMAIL',
        identityValue: 'ada@example.com',
        channel: 'MAGIC_LINK',
        methods: ['EMAIL'],
        verified: true,
        verifiedTimestamp: 1_763_000_000_000,
      },
    ],
    network: { ip: '203.0.113.7' },
    deviceInfo: basicDevice,
  },
};

export const userInfoOk: UserInfo = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email_verified: true,
  auth_time: '1763000000',
  authentication_details: { email: { email: 'ada@example.com', mode: 'MAGIC_LINK', auth_state: 'verified' } },
};

export const validateTokenOk: TokenValidationResult = {
  token: 'tok-1',
  status: 'SUCCESS',
  userId: 'user-1',
  timestamp: '2025-11-22T10:00:00Z',
  identities: [
    {
      identityType: 'MOBILE',
      identityValue: '919876543210',
      channel: 'OAUTH',
      methods: ['TRUE_CALLER'],
      verified: true,
      verifiedAt: '2025-11-22T10:00:00Z',
    },
  ],
  network,
  deviceInfo: fullDevice,
  secureInfo,
};

export const secureInfoOk: SecureInfoResult = {
  status: 'SUCCESS',
  secure_info: {
    ...secureInfo,
    virtualMachine: { result: false },
    locationSpoofing: { result: false },
    developerTools: { result: false },
  },
  network_info: network,
  device_info: fullDevice,
};

export const sessionDetailsOk: SessionDetails = {
  sessionToken: 'sess-1',
  userId: 'user-1',
  startedAt: 1_763_000_000_000,
  lastActiveAt: 1_763_000_100_000,
  identities: [
    {
      identityType: 'EMAIL',
      identityValue: 'ada@example.com',
      channel: 'EMAIL_LOGIN',
      methods: ['EMAIL'],
      verifiedAt: 1_763_000_000_000,
      name: 'Ada',
    },
  ],
  deviceInfo: {
    ...basicDevice,
    browser: 'Chrome',
    connection: '4g',
    timezoneOffset: -330,
    cpuArchitecture: '8',
    fontFamily: 'Arial',
  },
  network: {
    ip: '203.0.113.7',
    timezone: 'Asia/Kolkata',
    ipLocation: {
      city: {},
      subdivisions: {},
      country: { code: 'IN', name: 'India' },
      continent: { code: 'AS' },
      latitude: 19.07,
      longitude: 72.87,
      postalCode: '400001',
    },
  },
};

/** The valid answer of each path the capture server serves. */
export const OK_BY_PATH: Record<string, unknown> = {
  '/auth/v1/authorize': sendMagicLinkOk,
  '/auth/v1/verify/code': verifyCodeOk,
  '/auth/userInfo': userInfoOk,
  '/auth/v1/validate/token': validateTokenOk,
  '/auth/v1/secure-info': secureInfoOk,
  '/v1/sessions/get-session-details': sessionDetailsOk,
};

export function copy<T>(value: T): T {
  return structuredClone(value);
}
