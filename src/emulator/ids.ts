import { createHmac, randomBytes } from 'node:crypto';
import type { IdentityType } from '../wire/types.js';

/** A random, url-safe, unguessable identifier (`bytes` of entropy, base64url). */
export function randomId(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

// A fixed key on purpose: the same identity maps to the same userId across emulator restarts,
// so an app's user table stays valid while the developer restarts the emulator.
const USER_ID_KEY = 'passport-otpless emulator user id v1';

/** The stable user id of an identity: same e-mail (any case) or number, same id. */
export function userIdFor(type: IdentityType, value: string): string {
  const digest = createHmac('sha256', USER_ID_KEY).update(`${type}:${value.toLowerCase()}`).digest('base64url');
  return `${type === 'MOBILE' ? 'MO' : 'EM'}-${digest.slice(0, 22)}`;
}

/** A stable device id for a browser (user agent) at an address. */
export function deviceIdFor(userAgent: string, ip: string): string {
  return createHmac('sha256', USER_ID_KEY).update(`device:${userAgent}:${ip}`).digest('hex').slice(0, 32);
}
