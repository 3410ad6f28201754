/**
 * The strategy's options, one entry each: its check, default and line in docs/strategy.md. The
 * options the composition root builds parts from (`client`, `store`, `limits` and the client's
 * own) are checked there, where they are used; so are the rules that tie two options together
 * (`storeSecret` required with a ready `client` and a shared `store`).
 */
import { isCountryCode } from '../contact/phone.js';
import type { CountryCode } from '../contact/phone.js';
import { checkBotCheck } from '../botCheck/botCheck.js';
import { optionError } from '../options.js';
import { intFrom, isBoolean, oneOf, stringWhere } from '../options/checks.js';
import { checkOptionsArgument } from '../options/table.js';
import type { CheckedOptions, OptionCheck, OptionTable } from '../options/table.js';
import { checkRiskPolicy } from '../risk/policy.js';
import type { RiskPolicy } from '../risk/index.js';
import { checkPageOptions } from '../web/pageOptions.js';
import { EXPIRY_MAX_SECONDS, EXPIRY_MIN_SECONDS, MAGIC_LINK_CHANNELS } from '../wire/endpoints.js';
import { COUNTRY_EXPECTED, CROSS_DEVICE_MODES, ENRICHMENTS, PREFIX } from './options.js';
import { TOKEN_VERIFIED_AT_OPTIONS } from './tokenTimes.js';
import type { Enrichment, MagicLinkStrategyOptions } from './options.js';

/** A country code in which numbers typed without `+` are read (the strategy's, `send()`'s). */
export const countryCode: OptionCheck<CountryCode | undefined> = (value, owner, name) => {
  if (value !== undefined && !isCountryCode(value)) throw optionError(owner, name, COUNTRY_EXPECTED);
  return value;
};

/** Every option of `MagicLinkStrategy`, in the order of its docs. */
export const STRATEGY_OPTIONS = {
  clientId: {
    defaultDoc: 'required (unless `client`)',
    doc: 'your OTPless client id',
  },
  clientSecret: {
    defaultDoc: 'required (unless `client`)',
    doc: 'your OTPless client secret; it never appears in an error or log line',
  },
  authUrl: {
    defaultDoc: '`https://auth.otpless.app`',
    doc: 'the auth host; point it at the emulator in development and tests',
  },
  userAuthUrl: {
    defaultDoc: '`https://user-auth.otpless.app`',
    doc: 'the user-auth host; point it at the emulator in development and tests',
  },
  timeoutMs: { defaultDoc: '`10000`', doc: 'per call to the service' },
  maxResponseBytes: { defaultDoc: '1 MiB', doc: 'a larger answer of the service is `BAD_RESPONSE`' },
  connections: { defaultDoc: '`64`', doc: 'keep-alive connections per host' },
  client: {
    defaultDoc: 'none',
    doc: 'an `OtplessClient` to use instead of the client options above',
  },
  callbackUrl: {
    check: (value, owner, name) => {
      if (typeof value !== 'string' || !isHttpUrl(value)) {
        throw optionError(owner, name, "an absolute http(s) URL, such as 'https://app.example.com/auth/callback'");
      }
      return value;
    },
    defaultDoc: 'required',
    doc: 'absolute URL of your callback route, sent as `redirect_uri`',
  },
  expiry: {
    check: intFrom(EXPIRY_MIN_SECONDS, EXPIRY_MAX_SECONDS),
    defaultDoc: "the service's 300",
    doc: `link lifetime in seconds, ${EXPIRY_MIN_SECONDS} to ${EXPIRY_MAX_SECONDS}`,
  },
  enrich: {
    // `null` is none too, as it has always been.
    check: (given, owner, name): ReadonlySet<Enrichment> => {
      const value: unknown = given ?? [];
      if (!Array.isArray(value) || value.some((e) => !(ENRICHMENTS as readonly unknown[]).includes(e))) {
        throw optionError(owner, name, `an array of ${ENRICHMENTS.map((e) => `'${e}'`).join(', ')}`);
      }
      return new Set(value as Enrichment[]);
    },
    default: [],
    doc: "any of `'validateToken'`, `'secureInfo'`, `'userInfo'`: extra calls after verification, in parallel. A failure of the first two fails the login (`error`); `userInfo` is optional and its failure is ignored. Risk guards need `validateToken` or `secureInfo`.",
  },
  crossDevice: {
    check: oneOf(CROSS_DEVICE_MODES),
    default: 'handoff',
    doc: "a link opened in another browser than the one that asked: `'handoff'` (the other device approves by typing a number, the asking browser signs in), `'refuse'` (403 `WRONG_BROWSER`, code unspent) or `'accept'` (the other browser signs in). See [Cross-device login](cross-device.md).",
  },
  store: {
    defaultDoc: 'memory (one process)',
    doc: "the state every instance shares: the app's Redis client (node-redis v4 to v6 or ioredis, a cluster client of either) holds cross-device flows, used-token marks and send limits; or a `FlowStore` of your own (flows and marks). See [Several instances](several-instances.md)",
  },
  storePrefix: {
    check: stringWhere((prefix) => prefix.length <= 100, 'a string of at most 100 characters'),
    defaultDoc: "`'otpless:'`",
    doc: "prefix of every key `store`'s Redis holds",
  },
  storeSecret: {
    // Whether it is required (a ready client with a shared store) is decided where the store is built.
    check: stringWhere(
      (secret) => secret.length >= 32,
      'a string of at least 32 characters (a random secret of the app)',
    ),
    defaultDoc: 'derived from `clientSecret`',
    doc: "the server-side secret the store's keys, numbers and sealed approvals derive from (the store never holds it); at least 32 characters, the same on every instance. Required with `client` and a shared `store`",
  },
  requestIdsDiffer: {
    check: isBoolean,
    default: false,
    doc: "`true` only when `npx otpless-check` found that the service's verify-code `requestId` is not one the send returned: a code whose request id names none of this send's is otherwise refused (`WRONG_BROWSER`, or `CODE_REJECTED` on the approval page)",
  },
  maxAuthAgeMs: {
    check: intFrom(1000, 86_400_000),
    default: 300_000,
    defaultDoc: '`300000` (5 minutes)',
    doc: "a frontend-SDK token whose authentication is older, by the service's own time stamps (or that carries none), is 401 `TOKEN_REJECTED`",
  },
  tokenVerifiedAt: {
    check: oneOf(TOKEN_VERIFIED_AT_OPTIONS),
    default: 'learn',
    doc: "what validate-token's identity `verifiedAt` stamps, as `npx otpless-check` found (finding `verifiedAt`): `'signIn'` (a used frontend-SDK token's age check is trusted), `'answer'` (every frontend-SDK token is 401 `TOKEN_REJECTED`: a used one could sign in again), or `'learn'`: the package validates one used token again 2.5 to 60 s later and keeps what it saw in `store`; until then used-token marks live 24 hours",
  },
  confirm: {
    check: isBoolean,
    default: false,
    doc: 'GET (and HEAD) on the callback shows a button that POSTs the code; only the POST spends it (for mail scanners). The page follows `pages`',
  },
  passReqToCallback: { check: isBoolean, default: false, doc: 'call `verify(req, profile, done)`' },
  name: {
    check: stringWhere((name) => name.length > 0, 'a non-empty string'),
    default: 'magic-link',
    doc: 'the name for `passport.authenticate()`',
  },
  riskPolicy: {
    check: (value, owner, name) =>
      value === undefined ? undefined : checkRiskPolicy(value as RiskPolicy | null, owner, name),
    defaultDoc: '`DEFAULT_RISK_POLICY`',
    doc: 'the policy of the verdict put on `profile.risk` and stored at login',
  },
  channel: {
    check: oneOf(MAGIC_LINK_CHANNELS),
    defaultDoc: "not sent (the service's WhatsApp)",
    doc: "`'WHATSAPP'` or `'SMS'`: how a link to a mobile number travels",
  },
  fallbackChannel: {
    check: isBoolean,
    default: true,
    doc: "after the resend wait, the waiting page also offers a mobile number's link by the other channel (SMS after WhatsApp, WhatsApp after SMS), in the same sign-in; `false`: the same channel again only",
  },
  defaultCountry: {
    check: countryCode,
    defaultDoc: 'none',
    doc: "ISO 3166-1 alpha-2 code (`'US'`, `'IN'`): numbers typed without `+` are read as dialled in this country (its international and trunk prefixes); without it they are refused with a message asking for the country code (see [Phone numbers](#phone-numbers-defaultcountry))",
  },
  allowInternationalEmail: {
    check: isBoolean,
    default: false,
    doc: 'accept addresses with non-ASCII letters (`josé@bücher.example`); see [E-mail addresses](#e-mail-addresses-allowinternationalemail)',
  },
  limits: {
    defaultDoc:
      "5 per destination and client IP (15 per destination in all) and 20 per IP, per 15 minutes; in `store`'s Redis if given, else in memory",
    doc: 'send limits: `false`, options (`perDestination`, `perIp`, `redis`, `prefix`, `secret`, `maxCounts`) or a `SendLimiter`; see [Send limits](send-limits.md)',
  },
  pages: {
    check: (value, owner) => checkPageOptions(owner, value),
    defaultDoc: "the package's pages, in the browser's language among 5",
    doc: '`{ render, theme, locale, messages }` for the pages a person sees (the sign-in, waiting and error pages of the mount, the approval page and its outcome, the confirm page); see [Pages and translations](pages-and-translations.md)',
  },
  botCheck: {
    check: (value, owner) => checkBotCheck(owner, value),
    defaultDoc: 'none',
    doc: '`botCheck({ provider, secret, siteKey })`: a bot check verified before any send limit is spent or message sent; see [Send limits](send-limits.md)',
  },
} satisfies OptionTable<MagicLinkStrategyOptions>;

/**
 * The strategy's options after checking, with defaults applied: plain values only. The parts
 * they describe (client, stores, secrets, handoff, limiter) are built by the composition root,
 * src/login/compose.ts.
 */
export type CheckedStrategyOptions = CheckedOptions<typeof STRATEGY_OPTIONS>;

/** Checks the options when the strategy is built; each bad option throws a TypeError naming it. */
export function checkStrategyOptions(input: MagicLinkStrategyOptions): CheckedStrategyOptions {
  // Own keys only, and a misspelt option refused: `crossdevice: 'refuse'` would leave the handoff on.
  return checkOptionsArgument(
    STRATEGY_OPTIONS,
    PREFIX,
    input,
    'an object with callbackUrl and clientId/clientSecret (or client)',
  );
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
