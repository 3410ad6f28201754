import type {
  BasicDeviceInfo,
  CodeIdentity,
  CodeVerificationResult,
  DeviceInfo,
  SecureInfoResult,
  SessionDetails,
  SessionDeviceInfo,
  SessionIdentity,
  TokenIdentity,
  TokenValidationResult,
  UserInfo,
} from '../wire/types.js';
import { splitPhone } from './phone.js';
import { secureInfoResultSignals, tokenSecureInfo } from './scenarios.js';
import type { Completion, Login, LoginIdentity } from './store.js';

// Every answer below is built from one completed login, so all operations describe the same
// user, identities, device and network; each picks the members the spec lists for it.

type Completed = Login & { completion: Completion };

/**
 * The `channel` each operation reports, as the spec shows them (2.3): OAUTH in token validation,
 * MAGIC_LINK in code verification, EMAIL_LOGIN in session details (seen on an e-mail identity;
 * a mobile one keeps MAGIC_LINK, no other value being shown).
 */
type Operation = 'token' | 'code' | 'session';
function channelOf(operation: Operation, identity: LoginIdentity): string {
  if (operation === 'token') return 'OAUTH';
  return operation === 'session' && identity.type === 'EMAIL' ? 'EMAIL_LOGIN' : 'MAGIC_LINK';
}

/** A display name: from the e-mail's local part (jane.doe → Jane Doe), else from the number. */
function displayName(login: Login): string {
  const email = login.identities.find((identity) => identity.type === 'EMAIL');
  if (email) {
    const local = email.value.split('@', 1)[0] ?? '';
    const words = local.split(/[._+-]+/).filter(Boolean);
    if (words.length > 0) return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
  }
  const mobile = login.identities.find((identity) => identity.type === 'MOBILE');
  return mobile ? `User ${mobile.value.slice(-4)}` : 'Emulator User';
}

function identityBase(identity: LoginIdentity, operation: Operation = 'code') {
  return {
    identityType: identity.type,
    identityValue: identity.value,
    channel: channelOf(operation, identity),
    methods: [identity.method],
  };
}

/** Whether the login reports this identity as verified (emulator.nextLogin / issueToken can say not). */
function isVerified(login: Completed, identity: LoginIdentity): boolean {
  return !login.completion.unverified.has(identity.type);
}

function basicDevice(device: DeviceInfo): BasicDeviceInfo {
  const {
    userAgent,
    platform,
    vendor,
    language,
    cookieEnabled,
    screenWidth,
    screenHeight,
    screenColorDepth,
    devicePixelRatio,
  } = device;
  return {
    userAgent,
    platform,
    vendor,
    language,
    cookieEnabled,
    screenWidth,
    screenHeight,
    screenColorDepth,
    devicePixelRatio,
  };
}

function sessionDevice(device: DeviceInfo): SessionDeviceInfo {
  const { deviceId: _id, browserInfo: _browser, ...rest } = device;
  return rest;
}

/** validate-token's device: browserInfo without the members only secure-info has. */
function tokenDevice(device: DeviceInfo): DeviceInfo {
  const {
    browserMajorVersion: _major,
    browserFullVersion: _full,
    userAgent: _ua,
    ...browserInfo
  } = device.browserInfo ?? {};
  return { ...device, browserInfo };
}

/** Network with accuracyRadius and asn, without postalCode (token validation, secure-info). */
function fullNetwork({ network }: Completion) {
  const { postalCode: _postal, ...ipLocation } = network.ipLocation;
  return { ...network, ipLocation };
}

/** verify-code's answer (spec 2.9, the current docs); `requestId` is the send's unless a quirk says otherwise. */
export function codeVerificationResult(login: Completed, requestId: string = login.requestId): CodeVerificationResult {
  const { completion } = login;
  const identities: CodeIdentity[] = login.identities.map((identity) =>
    isVerified(login, identity)
      ? { ...identityBase(identity), verified: true, verifiedTimestamp: completion.completedAt }
      : { ...identityBase(identity), verified: false },
  );
  return {
    requestId,
    message: 'success',
    userDetails: {
      token: completion.token,
      status: 'SUCCESS',
      completedAt: completion.completedAt,
      identities,
      network: { ip: completion.network.ip },
      deviceInfo: basicDevice(completion.device),
    },
  };
}

/**
 * verify-code's older answer (service-facts.md, the `legacyVerifyShape` quirk): `timestamp`
 * (ISO) instead of `completedAt`; identities with `verifiedAt` (ISO) and `name` instead of
 * `verifiedTimestamp`; the full network (time zone and IP location).
 */
export function legacyCodeVerificationResult(
  login: Completed,
  requestId: string = login.requestId,
): CodeVerificationResult {
  const { completion } = login;
  const timestamp = new Date(completion.completedAt).toISOString();
  const name = displayName(login);
  const identities: CodeIdentity[] = login.identities.map((identity) =>
    isVerified(login, identity)
      ? { ...identityBase(identity), name, verified: true, verifiedAt: timestamp }
      : { ...identityBase(identity), name, verified: false },
  );
  return {
    requestId,
    message: 'success',
    userDetails: {
      token: completion.token,
      status: 'SUCCESS',
      timestamp,
      identities,
      network: fullNetwork(completion),
      deviceInfo: basicDevice(completion.device),
    },
  };
}

export function tokenValidationResult(login: Completed): TokenValidationResult {
  const { completion } = login;
  const verifiedAt = new Date(completion.completedAt).toISOString();
  const identities: TokenIdentity[] = login.identities.map((identity) =>
    isVerified(login, identity)
      ? { ...identityBase(identity, 'token'), verified: true, verifiedAt }
      : { ...identityBase(identity, 'token'), verified: false },
  );
  const result: TokenValidationResult = {
    token: completion.token,
    status: 'SUCCESS',
    userId: login.userId,
    timestamp: verifiedAt,
    identities,
    network: fullNetwork(completion),
    deviceInfo: tokenDevice(completion.device),
  };
  const secureInfo = tokenSecureInfo(login.scenario);
  if (secureInfo) result.secureInfo = secureInfo;
  return result;
}

export function secureInfoResult(login: Completed): SecureInfoResult {
  return {
    status: 'SUCCESS',
    secure_info: secureInfoResultSignals(login.scenario),
    network_info: fullNetwork(login.completion),
    device_info: login.completion.device,
  };
}

export function sessionDetails(login: Completed): SessionDetails {
  const { completion } = login;
  const name = displayName(login);
  // Session details carry no `verified` (spec 2.3): an unverified identity has no verifiedAt.
  const identities: SessionIdentity[] = login.identities.map((identity) =>
    isVerified(login, identity)
      ? { ...identityBase(identity, 'session'), verifiedAt: completion.completedAt, name }
      : { ...identityBase(identity, 'session'), name },
  );
  const { accuracyRadius: _radius, asn: _asn, ...ipLocation } = completion.network.ipLocation;
  return {
    sessionToken: login.sessionToken,
    userId: login.userId,
    startedAt: completion.completedAt,
    lastActiveAt: login.lastActiveAt,
    identities,
    deviceInfo: sessionDevice(completion.device),
    network: { ...completion.network, ipLocation },
  };
}

function authState(login: Completed, identity: LoginIdentity): string {
  return isVerified(login, identity) ? 'verified' : 'unverified';
}

/** The legacy userInfo answer (spec 2.2); members of an identity the login lacks are left out. */
export function userInfo(login: Completed): UserInfo {
  const name = displayName(login);
  const [firstName = name, ...rest] = name.split(' ');
  const lastName = rest.join(' ');
  const email = login.identities.find((identity) => identity.type === 'EMAIL');
  const mobile = login.identities.find((identity) => identity.type === 'MOBILE');
  const info: UserInfo = {
    name,
    first_name: firstName,
    last_name: lastName,
    family_name: lastName,
    email_verified: email !== undefined && isVerified(login, email),
    auth_time: String(Math.floor(login.completion.completedAt / 1000)),
    authentication_details: {},
  };
  if (email) {
    info.email = email.value;
    info.authentication_details = {
      ...info.authentication_details,
      email: { email: email.value, mode: email.method, auth_state: authState(login, email) },
    };
  }
  if (mobile) {
    const phone = splitPhone(mobile.value);
    info.phone_number = phone.international;
    info.national_phone_number = phone.national;
    info.country_code = phone.countryCode;
    info.authentication_details = {
      ...info.authentication_details,
      phone: {
        mode: mobile.method,
        phone_number: phone.national,
        country_code: phone.countryCode,
        auth_state: authState(login, mobile),
      },
    };
  }
  return info;
}
