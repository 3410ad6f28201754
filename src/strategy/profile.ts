import type {
  BasicDeviceInfo,
  CodeNetwork,
  CodeVerificationResult,
  DeviceInfo,
  IdentityType,
  Network,
  SecureInfo,
  SecureInfoResult,
  SessionDetails,
  TokenValidationResult,
  UserInfo,
} from '../wire/types.js';
import type { RiskVerdict } from '../risk/index.js';
import { readAuthTime, readEpochMs, readIsoTime } from '../wire/time.js';
import { DROPPED_MEMBERS } from '../wire/types.js';
import { readServicePhone, verifiedPhone } from '../contact/phone.js';
import { hashDestination } from '../session/pending.js';

/** One verified identity, the same shape whichever call reported it (spec 2.3). */
export interface MagicLinkIdentity {
  type: IdentityType;
  /** The e-mail address, or the mobile number in E.164 (`+` and digits). */
  value: string;
  channel?: string;
  methods: string[];
  verified: boolean;
  /** When the identity was verified, when the service said so. */
  verifiedAt?: Date;
  /** The name the service holds for this identity, when it sent one (older verify-code answers). */
  name?: string;
}

/** The two devices of a cross-device login. */
export interface MagicLinkHandoff {
  /** The device that opened the link and typed the number (the phone, usually). */
  approvedBy: { browser?: string; os?: string };
  approvedAt: Date;
  /** The browser that asked for the link and is now signed in. */
  askedBy: { browser?: string; os?: string };
}

/** The raw answers a profile was built from. They hold the login's token: do not log them. */
export interface MagicLinkRawAnswers {
  verification?: CodeVerificationResult;
  tokenValidation?: TokenValidationResult;
  secureInfo?: SecureInfoResult;
  userInfo?: UserInfo;
  /** A login by session token (get-session-details). */
  sessionDetails?: SessionDetails;
}

/**
 * The profile handed to the verify callback, after Passport's normalized profile.
 *
 * @example
 * new MagicLinkStrategy(options, async (profile: MagicLinkProfile) => {
 *   return users.findOrCreate({ id: profile.id, email: profile.emails.find((e) => e.verified)?.value });
 * });
 */
export interface MagicLinkProfile {
  provider: 'otpless';
  /** A verified identity of the login: the E.164 number or the e-mail address (a mobile login: the number). */
  id: string;
  /** The service's user id, when validate-token (or get-session-details) ran. */
  userId?: string;
  /**
   * When the person authenticated, by the service's clock: userInfo's `auth_time`, else
   * verify-code's `completedAt` (older answers: `timestamp`), else the latest `verifiedAt` of a
   * verified identity, else the session's `startedAt`. Absent when none of them reads
   * (src/wire/time.ts).
   */
  authenticatedAt?: Date;
  /** The service session's `lastActiveAt`, for a login by session token. */
  lastActiveAt?: Date;
  displayName?: string;
  name?: { givenName?: string; familyName?: string };
  emails: Array<{ value: string; verified: boolean }>;
  phoneNumbers: Array<{ value: string; verified: boolean }>;
  identities: MagicLinkIdentity[];
  /** The richest network details any call gave (secure-info, then validate-token, then verify). */
  network?: Network | CodeNetwork;
  /** The richest device details any call gave. */
  device?: DeviceInfo | BasicDeviceInfo;
  /** Risk signals, when validate-token or secure-info ran and the service sent them. */
  secureInfo?: SecureInfo;
  /** The verdict on the signals, whenever they were asked for (also when the service sent none). */
  risk?: RiskVerdict;
  /**
   * Present when the login was handed off: the link was opened, and approved, on another device
   * than the browser now signed in. The risk signals describe that approving device.
   */
  handoff?: MagicLinkHandoff;
  /**
   * `'passkey'` for a sign-in with a passkey (the mount's `passkeys` option): no message was
   * sent and the service was not called; the identities are those the link login that
   * registered the passkey verified, `_json` is empty and there are no risk signals.
   */
  via?: 'passkey';
  /** For a passkey sign-in: which passkey, and when it was registered. */
  passkey?: { credentialId: string; registeredAt: Date };
  _json: MagicLinkRawAnswers;
}

/** How far the service's clock may run ahead of ours when it dates a session's verification. */
const SESSION_CLOCK_SKEW_MS = 60_000;

/**
 * Builds the profile from whatever answers the login gathered. `sentTo` holds the hashes
 * (`hashDestination`) of the destinations this browser's send went to.
 */
export function buildProfile(
  answers: MagicLinkRawAnswers,
  risk: RiskVerdict | undefined,
  sentTo: readonly string[] = [],
  destinationKey?: Buffer,
): MagicLinkProfile | undefined {
  const { verification, tokenValidation, secureInfo, userInfo, sessionDetails } = answers;
  const vouchedBySend = onlyDestination(sentTo, destinationKey);
  // One list, in this order, of what normalizes (loops, not spreads of mapped copies: this runs
  // on every login).
  const found: MagicLinkIdentity[] = [];
  for (const i of tokenValidation?.identities ?? []) {
    const normalized = normalizeIdentity(i, readIsoTime(i.verifiedAt));
    if (normalized) found.push(normalized);
  }
  // Verified only when the service says so, or, when it says nothing, when the identity is the
  // one destination this browser's send went to (see `onlyDestination`). Its time is
  // `verifiedTimestamp` (epoch ms), or `verifiedAt` (ISO) in the older shape of the answer.
  for (const i of verification?.userDetails.identities ?? []) {
    const normalized = normalizeIdentity(i, readEpochMs(i.verifiedTimestamp) ?? readIsoTime(i.verifiedAt));
    if (!normalized) continue;
    if (i.verified === undefined && vouchedBySend(normalized.value)) normalized.verified = true;
    found.push(normalized);
  }
  // Session details carry no `verified` (spec 2.3): an identity counts as verified when the
  // service dates its verification (`verifiedAt`, epoch ms, not in the future); one without a
  // readable time is listed, unverified (fail closed).
  for (const i of sessionDetails?.identities ?? []) {
    const at = readEpochMs(i.verifiedAt);
    const normalized = normalizeIdentity(i, at);
    if (!normalized) continue;
    if (at !== undefined && at <= Date.now() + SESSION_CLOCK_SKEW_MS) normalized.verified = true;
    found.push(normalized);
  }
  const identities = mergeIdentities(found);

  const emails = contactList(
    identities.filter((i) => i.type === 'EMAIL').map((i) => ({ value: i.value, verified: i.verified })),
    userInfo?.email ? [{ value: userInfo.email, verified: userInfo.email_verified === true }] : [],
  );
  const userPhone = userInfoPhone(userInfo);
  const phoneNumbers = contactList(
    identities.filter((i) => i.type === 'MOBILE').map((i) => ({ value: i.value, verified: i.verified })),
    userPhone ? [{ value: userPhone, verified: false }] : [],
  );

  // The id is always a verified identity, whichever path logged in: one person, one id, by link
  // or by token (the service's `userId` stays a field of its own). None verified: no profile.
  const id = identities.find((i) => i.verified)?.value;
  if (!id) return undefined;

  const profile: MagicLinkProfile = {
    provider: 'otpless',
    id,
    emails,
    phoneNumbers,
    identities,
    _json: answers,
  };
  const userId = tokenValidation?.userId || sessionDetails?.userId;
  if (userId) profile.userId = userId;
  const authAt = authenticationTime(answers, identities);
  if (authAt !== undefined) profile.authenticatedAt = new Date(authAt);
  const lastActiveAt = readEpochMs(sessionDetails?.lastActiveAt);
  if (lastActiveAt !== undefined) profile.lastActiveAt = new Date(lastActiveAt);
  // The older verify-code answer names the person on the identity itself.
  const displayName = userInfo?.name || identities.find((i) => i.name)?.name;
  if (displayName) profile.displayName = displayName;
  const givenName = userInfo?.first_name;
  // An empty `last_name` says nothing: `family_name` may still hold the name.
  const familyName = userInfo?.last_name || userInfo?.family_name;
  if (givenName || familyName) {
    profile.name = {};
    if (givenName) profile.name.givenName = givenName;
    if (familyName) profile.name.familyName = familyName;
  }
  const network =
    secureInfo?.network_info ??
    tokenValidation?.network ??
    sessionDetails?.network ??
    verification?.userDetails.network;
  if (network) profile.network = network;
  const device =
    secureInfo?.device_info ??
    tokenValidation?.deviceInfo ??
    sessionDetails?.deviceInfo ??
    verification?.userDetails.deviceInfo;
  if (device) profile.device = device;
  const signals = riskSignalsOf(answers);
  if (signals) profile.secureInfo = signals;
  if (risk) profile.risk = risk;
  return profile;
}

/**
 * The risk signals of a login: secure-info's `secure_info`, unless it is empty (`{}`, no signals
 * collected) while validate-token's `secureInfo` has some; then those. A `secure_info` whose
 * signals were all dropped as malformed is not empty: it wins, and reads as malformed.
 *
 * @example assessRisk(riskSignalsOf(enrichments), policy)
 */
export function riskSignalsOf(
  answers: Pick<MagicLinkRawAnswers, 'secureInfo' | 'tokenValidation'>,
): SecureInfo | undefined {
  const fromCall = answers.secureInfo?.secure_info;
  const fromToken = answers.tokenValidation?.secureInfo;
  if (fromCall === undefined || fromToken === undefined || holdsSignals(fromCall)) return fromCall ?? fromToken;
  return fromToken;
}

function holdsSignals(info: SecureInfo): boolean {
  const dropped = (info as { [DROPPED_MEMBERS]?: unknown[] })[DROPPED_MEMBERS];
  return Object.keys(info).length > 0 || (dropped !== undefined && dropped.length > 0);
}

/** The first time that reads of auth_time, completedAt (or the older timestamp), verifiedAt, startedAt. */
function authenticationTime(
  answers: MagicLinkRawAnswers,
  identities: readonly MagicLinkIdentity[],
): number | undefined {
  const details = answers.verification?.userDetails;
  return (
    readAuthTime(answers.userInfo?.auth_time) ??
    readEpochMs(details?.completedAt) ??
    readIsoTime(details?.timestamp) ??
    latestVerifiedAt(identities) ??
    readEpochMs(answers.sessionDetails?.startedAt)
  );
}

/** The latest `verifiedAt` of a verified identity (asked only when the answers give no time of their own). */
function latestVerifiedAt(identities: readonly MagicLinkIdentity[]): number | undefined {
  let latest: number | undefined;
  for (const i of identities) {
    if (!i.verified || !i.verifiedAt) continue;
    const at = i.verifiedAt.getTime();
    latest = latest === undefined ? at : Math.max(latest, at);
  }
  return latest;
}

/**
 * Which identity the send itself vouches for when the service says nothing: the destination of a
 * send that went to exactly one. The code came back through a link, and a one-destination send
 * has one channel, so that link reached that destination. A send to two destinations (an e-mail
 * and a mobile, chosen by whoever asked) proves only that one of them was reached, and the real
 * service shares one request id across both channels, so nothing tells which: an attacker could
 * send to {own e-mail, victim's mobile}, click the e-mail link and have the mobile counted. There,
 * only the service's `verified: true` counts.
 */
function onlyDestination(sentTo: readonly string[], key: Buffer | undefined): (value: string) => boolean {
  const only = sentTo[0];
  if (only === undefined || sentTo.length > 1) return () => false;
  return (value) => hashDestination(value, key) === only;
}

interface RawIdentity {
  identityType: IdentityType;
  identityValue: string;
  channel?: string;
  methods?: string[];
  verified?: boolean;
  name?: string;
}

/** One identity in the profile's shape; `undefined` for a mobile identity that is no number (never shown as one). */
function normalizeIdentity(raw: RawIdentity, when: number | undefined): MagicLinkIdentity | undefined {
  const value = raw.identityType === 'MOBILE' ? verifiedPhone(raw.identityValue) : raw.identityValue;
  if (value === undefined) return undefined;
  const identity: MagicLinkIdentity = {
    type: raw.identityType,
    value,
    methods: Array.isArray(raw.methods) ? [...raw.methods] : [],
    verified: raw.verified === true,
  };
  if (raw.channel) identity.channel = raw.channel;
  if (raw.name) identity.name = raw.name;
  if (when !== undefined) identity.verifiedAt = new Date(when);
  return identity;
}

/** One entry per type and value; a verified report wins over an unverified one. */
function mergeIdentities(list: MagicLinkIdentity[]): MagicLinkIdentity[] {
  const byKey = new Map<string, MagicLinkIdentity>();
  for (const identity of list) {
    const key = `${identity.type}:${identity.value.toLowerCase()}`;
    const seen = byKey.get(key);
    if (!seen || (!seen.verified && identity.verified)) byKey.set(key, identity);
  }
  return [...byKey.values()];
}

function contactList(
  primary: Array<{ value: string; verified: boolean }>,
  extra: Array<{ value: string; verified: boolean }>,
): Array<{ value: string; verified: boolean }> {
  const out = [...primary];
  for (const item of extra) {
    if (!out.some((o) => o.value.toLowerCase() === item.value.toLowerCase())) out.push(item);
  }
  return out;
}

/**
 * User info may give the number with or without `+` and country code, and split into
 * `country_code` and `national_phone_number`. The split form is unambiguous, so it goes first
 * (bare national digits would read as another country's number). E.164 when valid, else nothing.
 */
function userInfoPhone(info: UserInfo | undefined): string | undefined {
  if (!info) return undefined;
  if (info.country_code && info.national_phone_number) {
    const split = readServicePhone(`${info.country_code}${info.national_phone_number}`).e164;
    if (split !== undefined) return split;
  }
  const raw = info.phone_number;
  if (!raw) return undefined;
  // Bare digits carry the country code only when they start with the one given beside them.
  const cc = info.country_code?.replace(/\D/g, '');
  const international = raw.startsWith('+') || (cc !== undefined && cc !== '' && raw.startsWith(cc));
  return international ? readServicePhone(raw).e164 : undefined;
}
