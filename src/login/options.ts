import type { OtplessClient, OtplessClientOptions } from '../client/index.js';
import type { RiskPolicy } from '../risk/index.js';
import type { MagicLinkChannel } from '../wire/types.js';
import type { RedisClientLike } from '../stores/redis.js';
import type { FlowStore } from '../stores/types.js';
import type { CountryCode } from '../contact/phone.js';
import type { SendLimiter, SendLimitsOptions } from '../limits/index.js';
import type { BotCheck } from '../botCheck/botCheck.js';
import type { PageOptions } from '../web/view.js';
import type { TokenVerifiedAtOption } from './tokenTimes.js';

/** The extra calls a login can make after the code is verified. */
export type Enrichment = 'validateToken' | 'secureInfo' | 'userInfo';
export const ENRICHMENTS: readonly Enrichment[] = ['validateToken', 'secureInfo', 'userInfo'];

/** What a link opened in another browser leads to: see `MagicLinkStrategyOptions.crossDevice`. */
export type CrossDeviceMode = 'handoff' | 'refuse' | 'accept';
export const CROSS_DEVICE_MODES: readonly CrossDeviceMode[] = ['handoff', 'refuse', 'accept'];

/**
 * Options of `MagicLinkStrategy`. Each is described once, in `STRATEGY_OPTIONS`
 * (src/login/optionTable.ts) with its check and default: `npm run docs:options` writes the
 * comments below and docs/strategy.md from it.
 */
export interface MagicLinkStrategyOptions extends Partial<OtplessClientOptions> {
  /** An `OtplessClient` to use instead of the client options above. Default: none. */
  client?: OtplessClient;
  /** Absolute URL of your callback route, sent as `redirect_uri`. Default: required. */
  callbackUrl: string;
  /** Link lifetime in seconds, 30 to 2592000. Default: the service's 300. */
  expiry?: number;
  /**
   * Any of `'validateToken'`, `'secureInfo'`, `'userInfo'`: extra calls after verification, in
   * parallel. A failure of the first two fails the login (`error`); `userInfo` is optional and its
   * failure is ignored. Risk guards need `validateToken` or `secureInfo`. Default: `[]`.
   */
  enrich?: Enrichment[];
  /**
   * A link opened in another browser than the one that asked: `'handoff'` (the other device
   * approves by typing a number, the asking browser signs in), `'refuse'` (403 `WRONG_BROWSER`,
   * code unspent) or `'accept'` (the other browser signs in). See Cross-device login
   * (docs/cross-device.md). Default: `'handoff'`.
   */
  crossDevice?: CrossDeviceMode;
  /**
   * The state every instance shares: the app's Redis client (node-redis v4 to v6 or ioredis, a
   * cluster client of either) holds cross-device flows, used-token marks and send limits; or a
   * `FlowStore` of your own (flows and marks). See Several instances (docs/several-instances.md).
   * Default: memory (one process).
   */
  store?: RedisClientLike | FlowStore;
  /** Prefix of every key `store`'s Redis holds. Default: `'otpless:'`. */
  storePrefix?: string;
  /**
   * The server-side secret the store's keys, numbers and sealed approvals derive from (the store
   * never holds it); at least 32 characters, the same on every instance. Required with `client` and
   * a shared `store`. Default: derived from `clientSecret`.
   */
  storeSecret?: string;
  /**
   * `true` only when `npx otpless-check` found that the service's verify-code `requestId` is not
   * one the send returned: a code whose request id names none of this send's is otherwise refused
   * (`WRONG_BROWSER`, or `CODE_REJECTED` on the approval page). Default: `false`.
   */
  requestIdsDiffer?: boolean;
  /**
   * A frontend-SDK token whose authentication is older, by the service's own time stamps (or that
   * carries none), is 401 `TOKEN_REJECTED`. Default: `300000` (5 minutes).
   */
  maxAuthAgeMs?: number;
  /**
   * What validate-token's identity `verifiedAt` stamps, as `npx otpless-check` found (finding
   * `verifiedAt`): `'signIn'` (a used frontend-SDK token's age check is trusted), `'answer'` (every
   * frontend-SDK token is 401 `TOKEN_REJECTED`: a used one could sign in again), or `'learn'`: the
   * package validates one used token again 2.5 to 60 s later and keeps what it saw in `store`;
   * until then used-token marks live 24 hours. Default: `'learn'`.
   */
  tokenVerifiedAt?: TokenVerifiedAtOption;
  /**
   * GET (and HEAD) on the callback shows a button that POSTs the code; only the POST spends it (for
   * mail scanners). The page follows `pages`. Default: `false`.
   */
  confirm?: boolean;
  /** Call `verify(req, profile, done)`. Default: `false`. */
  passReqToCallback?: boolean;
  /** The name for `passport.authenticate()`. Default: `'magic-link'`. */
  name?: string;
  /**
   * The policy of the verdict put on `profile.risk` and stored at login. Default:
   * `DEFAULT_RISK_POLICY`.
   */
  riskPolicy?: RiskPolicy;
  /**
   * ISO 3166-1 alpha-2 code (`'US'`, `'IN'`): numbers typed without `+` are read as dialled in this
   * country (its international and trunk prefixes); without it they are refused with a message
   * asking for the country code (see Phone numbers (docs/strategy.md)). Default: none.
   */
  defaultCountry?: CountryCode;
  /**
   * Accept addresses with non-ASCII letters (`josé@bücher.example`); see E-mail addresses
   * (docs/strategy.md). Default: `false`.
   */
  allowInternationalEmail?: boolean;
  /**
   * `'WHATSAPP'` or `'SMS'`: how a link to a mobile number travels. Default: not sent (the
   * service's WhatsApp).
   */
  channel?: MagicLinkChannel;
  /**
   * After the resend wait, the waiting page also offers a mobile number's link by the other channel
   * (SMS after WhatsApp, WhatsApp after SMS), in the same sign-in; `false`: the same channel again
   * only. Default: `true`.
   */
  fallbackChannel?: boolean;
  /**
   * Send limits: `false`, options (`perDestination`, `perIp`, `redis`, `prefix`, `secret`,
   * `maxCounts`) or a `SendLimiter`; see Send limits (docs/send-limits.md). Default: 5 per
   * destination and client IP (15 per destination in all) and 20 per IP, per 15 minutes; in
   * `store`'s Redis if given, else in memory.
   */
  limits?: SendLimitsOptions | SendLimiter | false;
  /**
   * `{ render, theme, locale, messages }` for the pages a person sees (the sign-in, waiting and
   * error pages of the mount, the approval page and its outcome, the confirm page); see Pages and
   * translations (docs/pages-and-translations.md). Default: the package's pages, in the browser's
   * language among 5.
   */
  pages?: PageOptions;
  /**
   * `botCheck({ provider, secret, siteKey })`: a bot check verified before any send limit is spent
   * or message sent; see Send limits (docs/send-limits.md). Default: none.
   */
  botCheck?: BotCheck;
}

/** The words of a bad `defaultCountry`, for the strategy's and `send()`'s option errors. */
export const COUNTRY_EXPECTED = "an ISO 3166-1 alpha-2 country code in upper case, such as 'US' or 'IN'";

/** The owner named in the strategy's option errors. */
export const PREFIX = 'MagicLinkStrategy';
