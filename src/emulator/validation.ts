import { EXPIRY_DEFAULT_SECONDS, EXPIRY_MAX_SECONDS, EXPIRY_MIN_SECONDS } from '../wire/endpoints.js';

/**
 * Mobile numbers: digits with country code, no plus sign, 7 to 15 digits: E.164's maximum, and
 * the shortest numbers the package sends (Saint Helena `2908999`, Tokelau `6907290`).
 */
const MOBILE_PATTERN = /^[1-9][0-9]{6,14}$/;
// Deliberately simple: one @, no spaces, a dot in the domain; not a full RFC 5322 parser.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;
const MAX_REDIRECT_URI_LENGTH = 2048;

export function isValidMobile(value: string): boolean {
  return MOBILE_PATTERN.test(value);
}

export function isValidEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(value);
}

/** E-mail addresses are case-insensitive in practice: one spelling per user. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function isValidRedirectUri(value: string): boolean {
  if (value.length > MAX_REDIRECT_URI_LENGTH) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The link lifetime in seconds, or `undefined` when the value is not a valid expiry. */
export function parseExpiry(value: string | null): number | undefined {
  if (value === null || value === '') return EXPIRY_DEFAULT_SECONDS;
  if (!/^[0-9]{1,8}$/.test(value)) return undefined;
  const seconds = Number(value);
  return seconds >= EXPIRY_MIN_SECONDS && seconds <= EXPIRY_MAX_SECONDS ? seconds : undefined;
}
