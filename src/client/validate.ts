import type { EndpointName } from '../wire/endpoints.js';
import { EXPIRY_MAX_SECONDS, EXPIRY_MIN_SECONDS } from '../wire/endpoints.js';
import { OtplessInputError } from '../errors.js';
import { serviceDigits } from '../contact/phone.js';
import type { MagicLinkChannel } from '../wire/types.js';

/** Arguments of `sendMagicLink`. At least one of `email` and `mobileNumber`. */
export interface SendMagicLinkInput {
  /** E-mail address to send the link to. */
  email?: string;
  /**
   * Mobile number with country code, e.g. `919876543210` or `+91 (98765) 43-210`: a leading `+`,
   * spaces, dashes, brackets and dots are removed, then 8 to 15 digits must remain.
   */
  mobileNumber?: string;
  /** Absolute http(s) URL the user lands on after clicking the link, with `?code=...` added. */
  redirectUri: string;
  /** Link lifetime in seconds, an integer from 30 to 2592000 (service default 300). */
  expiry?: number;
  /** How a link to `mobileNumber` is delivered: 'WHATSAPP' (the service's default) or 'SMS'. */
  channel?: MagicLinkChannel;
}

/** `SendMagicLinkInput` after checking: mobile number reduced to digits. */
export interface CheckedSendMagicLinkInput {
  email: string | undefined;
  mobileNumber: string | undefined;
  redirectUri: string;
  expiry: number | undefined;
}

/** No legitimate value comes near this; a huge one is a bug or an attack, not a login. */
export const MAX_INPUT_LENGTH = 4096;
const MAX_EMAIL_LENGTH = 254;
// Deliberately loose (RFC 5322 is not worth matching): one @, no spaces, a dotted domain.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(?:\.[^\s@.]+)+$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what it rejects
const CONTROL = /[\x00-\x1f\x7f]/;
// Unicode controls and invisible format characters (RTL override, zero-width space and joiner):
// an address that displays as another one must not get a link.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

function invalid(endpoint: EndpointName, field: string, what: string): OtplessInputError {
  return new OtplessInputError(field, `OTPless ${endpoint}: ${field} ${what}`);
}

/**
 * Checks the arguments of sendMagicLink before anything is sent.
 * @throws OtplessInputError naming the field
 */
export function checkSendMagicLinkInput(input: SendMagicLinkInput): CheckedSendMagicLinkInput {
  const endpoint = 'sendMagicLink';
  if (typeof input !== 'object' || input === null)
    throw invalid(endpoint, 'input', 'must be an object with redirectUri and email or mobileNumber');
  const { email, mobileNumber, redirectUri, expiry } = input;

  if (email === undefined && mobileNumber === undefined) {
    throw invalid(endpoint, 'email|mobileNumber', 'missing: give an email, a mobileNumber, or both');
  }
  if (
    email !== undefined &&
    (typeof email !== 'string' || email.length > MAX_EMAIL_LENGTH || INVISIBLE.test(email) || !EMAIL.test(email))
  ) {
    throw invalid(endpoint, 'email', 'is not a valid e-mail address');
  }
  let digits: string | undefined;
  if (mobileNumber !== undefined) {
    digits = serviceDigits(mobileNumber);
    if (digits === undefined) {
      throw invalid(
        endpoint,
        'mobileNumber',
        'must be 8 to 15 digits including the country code, e.g. 919876543210 (a leading + is allowed)',
      );
    }
  }
  if (typeof redirectUri !== 'string' || redirectUri.length > MAX_INPUT_LENGTH || !isHttpUrl(redirectUri)) {
    throw invalid(endpoint, 'redirectUri', 'must be an absolute http(s) URL, e.g. https://example.com/login/callback');
  }
  if (
    expiry !== undefined &&
    (typeof expiry !== 'number' ||
      !Number.isInteger(expiry) ||
      expiry < EXPIRY_MIN_SECONDS ||
      expiry > EXPIRY_MAX_SECONDS)
  ) {
    throw invalid(
      endpoint,
      'expiry',
      `must be an integer number of seconds from ${EXPIRY_MIN_SECONDS} to ${EXPIRY_MAX_SECONDS}`,
    );
  }
  return { email, mobileNumber: digits, redirectUri, expiry };
}

function isHttpUrl(value: string): boolean {
  if (CONTROL.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Checks a code, token or session token: a non-blank string without control characters, at
 * most 4096 characters. Returned unchanged (no trimming: an opaque value is sent as given).
 * @throws OtplessInputError naming the field
 */
export function checkOpaque(value: unknown, field: 'code' | 'token' | 'sessionToken', endpoint: EndpointName): string {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > MAX_INPUT_LENGTH ||
    value.trim() === '' ||
    CONTROL.test(value)
  ) {
    throw invalid(
      endpoint,
      field,
      `must be a non-empty string of at most ${MAX_INPUT_LENGTH} characters without control characters`,
    );
  }
  return value;
}

const MAGIC_LINK_CHANNELS: readonly MagicLinkChannel[] = ['WHATSAPP', 'SMS'];

/**
 * Checks `channel` of sendMagicLink: absent, or one of the service's delivery channels.
 * @throws OtplessInputError on field `channel`
 */
export function checkChannel(channel: unknown): MagicLinkChannel | undefined {
  if (channel === undefined || (MAGIC_LINK_CHANNELS as readonly unknown[]).includes(channel)) {
    return channel as MagicLinkChannel | undefined;
  }
  throw invalid('sendMagicLink', 'channel', `must be one of ${MAGIC_LINK_CHANNELS.join(', ')}`);
}
