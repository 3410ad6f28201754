/**
 * Wire types of the OTPless service, exactly as spec section 2 describes them, per operation.
 *
 * Shared by the client (which checks responses against them) and the emulator (which produces
 * them); neither imports the other, so a bug in one cannot hide behind the same bug in the other.
 * Every object type allows unknown extra fields: the service may add fields at any time.
 *
 * The spec does not say which response fields are required. Members the product relies on
 * (request ids, tokens, user ids, identities, the signals of secure-info) are required; every
 * other member is optional, and checked for its type whenever it is present.
 */

/** An ISO 8601 UTC timestamp string, e.g. `2026-11-22T10:00:00.000Z`. */
export type IsoTimestamp = string;
/** Milliseconds since the Unix epoch. */
export type EpochMs = number;

/** Extra fields the service may add are kept. */
export interface Extensible {
  [extra: string]: unknown;
}

export type IdentityType = 'MOBILE' | 'EMAIL';
/** Delivery channel of a magic link sent to a mobile number, or EMAIL. */
export type DeliveryMethod = 'WHATSAPP' | 'SMS' | 'VIBER' | 'EMAIL';
/**
 * The `channel` query parameter of send magic link (service-facts.md): how a link to a mobile
 * number is delivered. The service's default is WHATSAPP.
 */
export type MagicLinkChannel = 'WHATSAPP' | 'SMS';

/**
 * Key under which the client lists the members it dropped from an answer's object because they
 * did not fit their documented type (an optional member that was malformed reads as absent).
 * A symbol, so it is never serialized and never collides with a field of the service; a risk
 * signal listed here is judged `malformed` by `assessRisk`, never clean.
 */
export const DROPPED_MEMBERS: unique symbol = Symbol.for('passport-otpless.droppedMembers');

// ---------------------------------------------------------------- 2.1 Magic link request entry

/** Item of `requestIds` (spec 2.1). `destinationUri` is present on the MOBILE entry only. */
export interface MagicLinkRequestEntry extends Extensible {
  type: IdentityType;
  /** Opaque request identifier; equals `requestId` of the later code verification. */
  value: string;
  destinationUri?: string;
}

/** Response of send magic link (spec 4.1). */
export interface SendMagicLinkResponse extends Extensible {
  requestIds: MagicLinkRequestEntry[];
}

// ---------------------------------------------------------------- 2.2 User information

export interface AuthenticationDetailsPhone extends Extensible {
  mode?: string;
  phone_number?: string;
  country_code?: string;
  auth_state?: string;
}

export interface AuthenticationDetailsEmail extends Extensible {
  email?: string;
  mode?: string;
  auth_state?: string;
}

/** Response of the userInfo call (spec 2.2, 4.3). Requiredness is not shown, so all optional. */
export interface UserInfo extends Extensible {
  name?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  family_name?: string;
  phone_number?: string;
  national_phone_number?: string;
  country_code?: string;
  email_verified?: boolean;
  auth_time?: string;
  authentication_details?: {
    phone?: AuthenticationDetailsPhone;
    email?: AuthenticationDetailsEmail;
  } & Extensible;
}

// ---------------------------------------------------------------- 2.3 Identity (three variants)

interface IdentityBase extends Extensible {
  identityType: IdentityType;
  /** Mobile: digits with country code, no plus sign. E-mail: the address. */
  identityValue: string;
  channel?: string;
  methods?: string[];
}

/** Identity in a token validation result: `verifiedAt` is an ISO string. */
export interface TokenIdentity extends IdentityBase {
  verified?: boolean;
  verifiedAt?: IsoTimestamp;
}

/**
 * Identity in a code verification result: `verifiedTimestamp` is epoch ms. The older shape of
 * the answer (service-facts.md) has `verifiedAt` as an ISO string and a `name` instead.
 */
export interface CodeIdentity extends IdentityBase {
  verified?: boolean;
  verifiedTimestamp?: EpochMs;
  /** Older shape. */
  verifiedAt?: IsoTimestamp;
  /** Older shape. */
  name?: string;
}

/** Identity in session details: `verifiedAt` is epoch ms, no `verified`, has `name`. */
export interface SessionIdentity extends IdentityBase {
  verifiedAt?: EpochMs;
  name?: string;
}

// ---------------------------------------------------------------- 2.4 Network

export interface IpLocation extends Extensible {
  accuracyRadius?: number;
  city?: { name?: string } & Extensible;
  subdivisions?: { code?: string; name?: string } & Extensible;
  country?: { code?: string; name?: string } & Extensible;
  continent?: { code?: string } & Extensible;
  latitude?: number;
  longitude?: number;
  postalCode?: string;
  asn?: { asn?: string; name?: string; network?: string } & Extensible;
}

/** Network in token validation and secure-info (with accuracyRadius and asn). */
export interface Network extends Extensible {
  ip?: string;
  timezone?: string;
  ipLocation?: IpLocation;
}

/** Network in code verification: only the ip (the older shape of the answer has the full network). */
export interface CodeNetwork extends Extensible {
  ip?: string;
  /** Older shape. */
  timezone?: string;
  /** Older shape. */
  ipLocation?: IpLocation;
}

/** Network in session details: ipLocation lacks accuracyRadius and asn. */
export interface SessionNetwork extends Extensible {
  ip?: string;
  timezone?: string;
  // Pick, not Omit: Omit over an index signature would erase the named members.
  ipLocation?: Pick<
    IpLocation,
    'city' | 'subdivisions' | 'country' | 'continent' | 'latitude' | 'longitude' | 'postalCode'
  > &
    Extensible;
}

// ---------------------------------------------------------------- 2.5 Device info

/** Members present in every device info variant (code verification has only these). */
export interface BasicDeviceInfo extends Extensible {
  userAgent?: string;
  platform?: string;
  vendor?: string;
  language?: string;
  cookieEnabled?: boolean;
  screenWidth?: number;
  screenHeight?: number;
  screenColorDepth?: number;
  devicePixelRatio?: number;
}

/** Device info in session details (no deviceId, no browserInfo). */
export interface SessionDeviceInfo extends BasicDeviceInfo {
  browser?: string;
  connection?: string;
  timezoneOffset?: number;
  cpuArchitecture?: string;
  fontFamily?: string;
}

export interface BrowserInfo extends Extensible {
  browserName?: string;
  os?: string;
  osVersion?: string;
  device?: string;
  /** secure-info only; may be empty. */
  browserMajorVersion?: string;
  /** secure-info only; may be empty. */
  browserFullVersion?: string;
  /** secure-info only. */
  userAgent?: string;
}

/** Device info in token validation and secure-info. */
export interface DeviceInfo extends SessionDeviceInfo {
  deviceId?: string;
  browserInfo?: BrowserInfo;
}

// ---------------------------------------------------------------- 2.6 Secure info (risk signals)

export interface ResultSignal<T> extends Extensible {
  result: T;
}

export interface VpnSignal extends Extensible {
  result: boolean;
  originCountry?: string;
  /** secure-info only. */
  originTimezone?: string;
  methods?: {
    timezoneMismatch?: boolean;
    publicVPN?: boolean;
    /** secure-info only. */
    auxiliaryMobile?: boolean;
    /** secure-info only. */
    osMismatch?: boolean;
  } & Extensible;
}

/**
 * Risk signals (spec 2.6). Any single signal can be absent from a response, so every member
 * is optional; `assessRisk` treats absence according to its policy (fail closed by default).
 */
export interface SecureInfo extends Extensible {
  incognito?: boolean;
  confidence?: { score: number; revision?: string } & Extensible;
  /** `notDetected`, `good` (known crawler) or `bad` (automation). */
  bot?: ResultSignal<string>;
  rootApps?: ResultSignal<boolean>;
  emulator?: ResultSignal<boolean>;
  vpn?: VpnSignal;
  tampering?: { result: boolean; anomalyScore?: number } & Extensible;
  jailbroken?: ResultSignal<boolean>;
  clonedApp?: ResultSignal<boolean>;
  factoryReset?: { time?: IsoTimestamp; timestamp?: number } & Extensible;
  frida?: ResultSignal<boolean>;
  suspectScore?: ResultSignal<number>;
  privacySettings?: ResultSignal<boolean>;
  /** secure-info only. */
  virtualMachine?: ResultSignal<boolean>;
  /** secure-info only. */
  locationSpoofing?: ResultSignal<boolean>;
  /** secure-info only. */
  developerTools?: ResultSignal<boolean>;
}

// ---------------------------------------------------------------- 2.7 Token validation result

/** Response of validate token (spec 2.7, 4.4). */
export interface TokenValidationResult extends Extensible {
  token: string;
  status?: string;
  userId: string;
  timestamp?: IsoTimestamp;
  identities: TokenIdentity[];
  network?: Network;
  deviceInfo?: DeviceInfo;
  /** Only when the secure client SDK is integrated. */
  secureInfo?: SecureInfo;
}

// ---------------------------------------------------------------- 2.8 Session details

/** Response of get session details (spec 2.8, 4.6). */
export interface SessionDetails extends Extensible {
  sessionToken: string;
  userId: string;
  startedAt?: EpochMs;
  lastActiveAt?: EpochMs;
  identities: SessionIdentity[];
  deviceInfo?: SessionDeviceInfo;
  network?: SessionNetwork;
}

// ---------------------------------------------------------------- 2.9 Code verification result

export interface CodeUserDetails extends Extensible {
  token: string;
  status?: string;
  completedAt?: EpochMs;
  /** The older shape's completion time, instead of `completedAt`. */
  timestamp?: IsoTimestamp;
  identities: CodeIdentity[];
  network?: CodeNetwork;
  deviceInfo?: BasicDeviceInfo;
}

/** Response of verify code (spec 2.9, 4.2). */
export interface CodeVerificationResult extends Extensible {
  requestId: string;
  message?: string;
  userDetails: CodeUserDetails;
}

// ---------------------------------------------------------------- 4.5 Secure info response

/** Response of get secure info (spec 4.5): snake_case keys. */
export interface SecureInfoResult extends Extensible {
  status?: string;
  secure_info: SecureInfo;
  network_info?: Network;
  device_info?: DeviceInfo;
}

// ---------------------------------------------------------------- Errors (service-facts.md)

/**
 * Error body of the service. `errorCode` is a string of digits; the legacy userInfo endpoint
 * answers with `message` only. Never assume a field is there.
 */
export interface ServiceErrorBody extends Extensible {
  message?: string;
  errorCode?: string;
  description?: string;
}
