/**
 * Options of `runCheck`, checked before anything is sent: a mistake here is the person's
 * (exit 2 from the command), never a finding about the service.
 */

import { checkSendMagicLinkInput } from '../client/validate.js';
import { isOtplessError } from '../errors/index.js';
import { DEFAULT_AUTH_URL, DEFAULT_USER_AUTH_URL } from '../wire/endpoints.js';
import type { MagicLinkChannel } from '../wire/types.js';

/** What to check, and with which account. */
export interface CheckOptions {
  clientId: string;
  /** Never printed, never in the report. */
  clientSecret: string;
  /** Where to send the link; give this and/or `mobile`. */
  email?: string;
  /** Digits with the country code (a leading `+` and separators are allowed). */
  mobile?: string;
  /** Channel of the mobile link. Default 'SMS': whether it is honoured is one of the checks. */
  channel?: MagicLinkChannel;
  /** Default the real auth host. */
  authUrl?: string;
  /** Default the real user-auth host. */
  userAuthUrl?: string;
  /** Port of the local callback listener on 127.0.0.1. Default 0: any free port. */
  port?: number;
  /**
   * A page the link should land on instead of the local listener (e.g. one a phone can reach,
   * allowed as a redirect by the OTPless app). The check adds its flow parameter. No listener
   * then: the landing URL must come from `io.landing` (the command asks for a paste).
   */
  landingPage?: string;
  /** How long to wait for the link to be opened, in ms. Default 5 minutes. */
  clickTimeoutMs?: number;
  /** Limit per service call, in ms. Default 10 s (the client's). */
  requestTimeoutMs?: number;
  /** Also try `mobile_number=+...` on authorize: sends a second real message. Needs `mobile`. */
  probePlus?: boolean;
  /**
   * Ask for the link to be opened twice: the first opening plays a mail scanner's GET (its code
   * is never verified), the second is the person's, and its code is the one checked. Settles
   * whether the service's link hop survives a scanner.
   */
  openTwice?: boolean;
  /**
   * A session token of one of your own logins (from the service's frontend SDK), never printed:
   * read twice through get-session-details to see whether reading moves `lastActiveAt`.
   */
  sessionToken?: string;
}

/** Options with defaults filled in. */
export interface ResolvedCheckOptions {
  clientId: string;
  clientSecret: string;
  email: string | undefined;
  /** Digits only. */
  mobile: string | undefined;
  channel: MagicLinkChannel;
  authUrl: string;
  userAuthUrl: string;
  port: number;
  landingPage: URL | undefined;
  clickTimeoutMs: number;
  requestTimeoutMs: number;
  probePlus: boolean;
  openTwice: boolean;
  sessionToken: string | undefined;
}

/** A bad option: the message names it, never repeats a value that could be the secret. */
export class CheckOptionsError extends Error {}

const FIVE_MINUTES = 5 * 60 * 1000;
/** Nobody waits longer for a click; it also stays below setTimeout's ceiling. */
const ONE_DAY = 24 * 60 * 60 * 1000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

function httpUrl(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CheckOptionsError(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CheckOptionsError(`${name} must be an absolute http(s) URL`);
  }
  return url;
}

function positiveMs(value: number | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new CheckOptionsError(`${name} must be a whole number of ms from 1 to ${max}`);
  }
  return value;
}

/** Checks and fills in `options`; throws CheckOptionsError naming the first bad one. */
export function resolveCheckOptions(options: CheckOptions): ResolvedCheckOptions {
  if (!options.clientId || !options.clientSecret) throw new CheckOptionsError('the client id and secret are required');
  if (options.email === undefined && options.mobile === undefined) {
    throw new CheckOptionsError('give an e-mail address and/or a mobile number to send the link to');
  }
  const mobile = contactDigits(options.email, options.mobile);
  if (options.probePlus && mobile === undefined) throw new CheckOptionsError('the + probe needs a mobile number');
  const channel = options.channel ?? 'SMS';
  if (channel !== 'SMS' && channel !== 'WHATSAPP') throw new CheckOptionsError('the channel must be SMS or WHATSAPP');
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CheckOptionsError('the port must be 0 to 65535');
  const clickTimeoutMs = positiveMs(options.clickTimeoutMs, 'the click timeout', FIVE_MINUTES, ONE_DAY);
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    email: options.email,
    mobile,
    channel,
    authUrl: httpUrl(options.authUrl ?? DEFAULT_AUTH_URL, 'the auth URL').href.replace(/\/+$/, ''),
    userAuthUrl: httpUrl(options.userAuthUrl ?? DEFAULT_USER_AUTH_URL, 'the user-auth URL').href.replace(/\/+$/, ''),
    port,
    landingPage: options.landingPage === undefined ? undefined : httpUrl(options.landingPage, 'the landing page'),
    clickTimeoutMs,
    requestTimeoutMs: positiveMs(options.requestTimeoutMs, 'the request timeout', DEFAULT_REQUEST_TIMEOUT_MS, 600_000),
    probePlus: options.probePlus ?? false,
    openTwice: options.openTwice ?? false,
    sessionToken: sessionTokenOf(options.sessionToken),
  };
}

/** The session token as given: a non-empty string of printable characters, or nothing. */
function sessionTokenOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,4096}$/.test(value)) {
    throw new CheckOptionsError('the session token must be printable characters without spaces');
  }
  return value;
}

/**
 * The contacts checked by the client's own rules now, so a typo ends the run before the
 * credential check rather than after it. Returns the mobile number as digits.
 */
function contactDigits(email: string | undefined, mobile: string | undefined): string | undefined {
  try {
    const checked = checkSendMagicLinkInput({
      ...(email !== undefined ? { email } : {}),
      ...(mobile !== undefined ? { mobileNumber: mobile } : {}),
      redirectUri: 'http://127.0.0.1/callback',
    });
    return checked.mobileNumber;
  } catch (err) {
    if (!isOtplessError(err, 'INVALID_ARGUMENT')) throw err;
    throw new CheckOptionsError(
      err.field === 'email'
        ? 'the e-mail address is not valid'
        : 'the mobile number must be 8 to 15 digits with the country code, e.g. +919876543210',
    );
  }
}
