import type { EndpointName } from '../wire/endpoints.js';
import { EXPIRY_MAX_SECONDS, EXPIRY_MIN_SECONDS } from '../wire/endpoints.js';
import { OtplessInputError } from '../errors/index.js';
import { readServicePhone, serviceDigits } from '../contact/phone.js';
import { readEmail } from '../contact/email.js';
import type { MagicLinkChannel } from '../wire/types.js';
import { MAGIC_LINK_CHANNELS } from '../wire/endpoints.js';

/** Arguments of `sendMagicLink`. At least one of `email` and `mobileNumber`. */
export interface SendMagicLinkInput {
  /**
   * E-mail address to send the link to: ASCII unless `allowInternationalEmail`; never with
   * invisible, control, filler or look-alike characters. Sent with the domain in lower case.
   */
  email?: string;
  /**
   * Mobile number with its country code: the service's digits (`919876543210`) or E.164
   * (`+919876543210`; an international prefix such as `00` is refused: it depends on where it is
   * dialled from). Bare digits always carry the country code, as in
   * the service's own format. Spaces, dashes, brackets, dots and slashes are allowed. The number
   * must be valid for its country (libphonenumber-js); it is sent as digits without `+`.
   */
  mobileNumber?: string;
  /**
   * Accept an international address (`josé@bücher.example`): sent with the local part as typed
   * (NFC) and the domain as punycode (`xn--bcher-kva.example`). Default false.
   */
  allowInternationalEmail?: boolean;
  /** Absolute http(s) URL the user lands on after clicking the link, with `?code=...` added. */
  redirectUri: string;
  /** Link lifetime in seconds, an integer from 30 to 2592000 (service default 300). */
  expiry?: number;
  /** How a link to `mobileNumber` is delivered: 'WHATSAPP' (the service's default) or 'SMS'. */
  channel?: MagicLinkChannel;
}

/** `SendMagicLinkInput` after checking: the address in the form to send, the number as the service's digits. */
export interface CheckedSendMagicLinkInput {
  email: string | undefined;
  mobileNumber: string | undefined;
  redirectUri: string;
  expiry: number | undefined;
}

/** No legitimate value comes near this; a huge one is a bug or an attack, not a login. */
export const MAX_INPUT_LENGTH = 4096;
// eslint-disable-next-line no-control-regex -- control characters are exactly what it rejects
const CONTROL = /[\x00-\x1f\x7f]/;

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
  const { email, mobileNumber, redirectUri, expiry, allowInternationalEmail } = input;

  if (email === undefined && mobileNumber === undefined) {
    throw invalid(endpoint, 'email|mobileNumber', 'missing: give an email, a mobileNumber, or both');
  }
  let address: string | undefined;
  if (email !== undefined) {
    address = readEmail(email, { international: allowInternationalEmail === true }).address;
    if (address === undefined) throw invalid(endpoint, 'email', 'is not a valid e-mail address');
  }
  let digits: string | undefined;
  if (mobileNumber !== undefined) {
    const e164 = readServicePhone(mobileNumber).e164;
    if (e164 === undefined) {
      throw invalid(
        endpoint,
        'mobileNumber',
        'must be a valid mobile number with its country code, e.g. 919876543210 or +919876543210',
      );
    }
    digits = serviceDigits(e164);
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
  return { email: address, mobileNumber: digits, redirectUri, expiry };
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
