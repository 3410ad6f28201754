import { isIP } from 'node:net';
import { OtplessSetupError } from '../errors/index.js';
import { optionError } from '../options.js';
import { intFrom, stringWhere } from '../options/checks.js';
import { checkWithTable } from '../options/table.js';
import type { OptionTable } from '../options/table.js';
import type { FlowStore } from '../stores/types.js';
import { isCredentialStore } from './credentials.js';
import type { PasskeyCredentialStore } from './credentials.js';
import { StoreCredentials } from './storeCredentials.js';

/** The mount's `passkeys` option: `true` for the defaults, or these. */
export interface PasskeyOptions {
  /** The name the browser shows when it makes the passkey. Default: the callback URL's host. */
  rpName?: string;
  /** Where passkeys live. Default: the strategy's `store` (`StoreCredentials`). */
  credentials?: PasskeyCredentialStore;
  /** How long after a link login the offer (and so a registration) is allowed, in ms. Default 300 000 (5 min). */
  offerWindowMs?: number;
  /** How long "Not now" keeps this browser from being offered again, in days. Default 30. */
  notNowDays?: number;
}

/** Every option of `passkeys`: its check, default and one-line doc. */
export const PASSKEY_OPTIONS = {
  rpName: {
    check: stringWhere((value) => value.length > 0 && value.length <= 64, 'a name of 1 to 64 characters'),
    defaultDoc: "the callback URL's host",
    doc: 'the name the browser shows when it makes the passkey',
  },
  credentials: {
    check: (value, owner, name) => {
      if (value !== undefined && !isCredentialStore(value)) {
        throw optionError(owner, name, 'a PasskeyCredentialStore (find, listByUser, save, updateCounter, remove)');
      }
      return value as PasskeyCredentialStore | undefined;
    },
    defaultDoc: "the strategy's `store`",
    doc: 'where passkeys live: `find`, `listByUser`, `save`, `updateCounter`, `remove` (see docs/passkeys.md)',
  },
  offerWindowMs: {
    check: intFrom(10_000, 3_600_000),
    default: 300_000,
    doc: 'how long after a link login the offer, and so a registration, is allowed',
  },
  notNowDays: {
    check: intFrom(1, 365),
    default: 30,
    doc: '"Not now" keeps this browser from being offered again for this many days',
  },
} satisfies OptionTable<PasskeyOptions>;

/** What the passkey routes run with, once checked. */
export interface PasskeySettings {
  /** The WebAuthn RP ID: the callback URL's host name. */
  rpID: string;
  /** The only origin a passkey response may come from: the callback URL's. */
  origin: string;
  rpName: string;
  credentials: PasskeyCredentialStore;
  offerWindowMs: number;
  notNowMs: number;
}

/**
 * Checks the `passkeys` option of a mount: `undefined` when off. An RP ID cannot be an IP
 * address (browsers refuse it), so a callback URL on one is a setup error now, not a silent
 * failure in the browser later.
 */
export function checkPasskeyOptions(
  owner: string,
  given: unknown,
  callbackUrl: string,
  store: FlowStore,
): PasskeySettings | undefined {
  if (given === undefined || given === false) return undefined;
  if (given !== true && (typeof given !== 'object' || given === null)) {
    throw optionError(owner, 'passkeys', 'true, or an object such as { rpName: "My app" }');
  }
  const options = checkWithTable(PASSKEY_OPTIONS, owner, given === true ? {} : given, 'passkeys.');
  const url = new URL(callbackUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    throw new OtplessSetupError(
      'PASSKEY_NEEDS_DOMAIN',
      `${owner}: passkeys need a domain name, and the callbackUrl's host is an IP address (${host}), which ` +
        'browsers refuse as a WebAuthn RP ID. Use http://localhost:<port>/... in development (a secure context ' +
        'over http), and your domain in production.',
    );
  }
  return {
    rpID: host,
    origin: url.origin,
    rpName: options.rpName ?? host,
    credentials: options.credentials ?? new StoreCredentials(store),
    offerWindowMs: options.offerWindowMs,
    notNowMs: options.notNowDays * 24 * 3600 * 1000,
  };
}
