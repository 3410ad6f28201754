import type { OtplessClient, OtplessClientOptions } from '../client/index.js';
import type { RiskPolicy } from '../risk/index.js';
import type { MagicLinkChannel } from '../wire/types.js';
import type { RedisClientLike } from '../stores/redis.js';
import type { FlowStore } from '../stores/types.js';
import type { CountryCode } from '../contact/phone.js';
import type { SendLimiter, SendLimitsOptions } from '../limits/index.js';
import type { BotCheck } from '../botCheck/botCheck.js';
import type { PageOptions } from '../web/view.js';

/** The extra calls a login can make after the code is verified. */
export type Enrichment = 'validateToken' | 'secureInfo' | 'userInfo';
export const ENRICHMENTS: readonly Enrichment[] = ['validateToken', 'secureInfo', 'userInfo'];

/** What a link opened in another browser leads to: see `MagicLinkStrategyOptions.crossDevice`. */
export type CrossDeviceMode = 'handoff' | 'refuse' | 'accept';
export const CROSS_DEVICE_MODES: readonly CrossDeviceMode[] = ['handoff', 'refuse', 'accept'];

/** Options of `MagicLinkStrategy`. Their checks and defaults: `STRATEGY_OPTIONS` (src/login/optionTable.ts). */
export interface MagicLinkStrategyOptions extends Partial<OtplessClientOptions> {
  /** A client to use instead of `clientId`/`clientSecret`/`authUrl`/`userAuthUrl`. */
  client?: OtplessClient;
  /** Absolute URL of the callback route, sent to the service as `redirect_uri`. */
  callbackUrl: string;
  /** Link lifetime in seconds (30..2592000), passed to the service. Default: the service's 300. */
  expiry?: number;
  /** Calls made after verification, in parallel. Default: none. */
  enrich?: Enrichment[];
  /**
   * What happens when the link is opened in another browser than the one that asked for it
   * (the usual case for a mobile number: asked on a laptop, tapped on the phone). Default 'handoff'.
   * - `'handoff'`: the phone shows an approval page; typing the number the laptop shows signs the
   *   laptop in (it polls `strategy.status()` and finishes on the callback route).
   * - `'refuse'`: 403 `WRONG_BROWSER`, the code left unspent.
   * - `'accept'`: the browser that opened the link is signed in (no binding to the one that asked).
   */
  crossDevice?: CrossDeviceMode;
  /**
   * The shared state of every instance of the app: give the app's Redis client (node-redis v4
   * to v6 or ioredis, a cluster client of either) and cross-device flows, used-token marks and
   * send limits all live there, under `storePrefix`. Another backend: an object implementing
   * `FlowStore` (flows and marks; send limits then stay in memory unless `limits` says
   * otherwise). Default: memory, right for one process.
   */
  store?: RedisClientLike | FlowStore;
  /** Prefix of every key the `store` option's Redis holds. Default `'otpless:'`. */
  storePrefix?: string;
  /** Flows and used tokens only, as before `store`: prefer `store`. */
  flowStore?: FlowStore;
  /**
   * The server-side secret the store's keys, numbers and sealed approvals derive from; the
   * store never holds it. Default: derived from `clientSecret`. Needed with `client` and a
   * shared store (every instance must use the same one); at least 32 characters.
   */
  storeSecret?: string;
  /**
   * Say `true` only when `npx otpless-check` found that the service's verify-code `requestId`
   * is not one the send returned. Logins are then bound by the link's flow id alone, and a
   * cross-device approval by the flow id and its two-digit number: someone holding a flow id
   * could approve it with a code of their own with a chance of 1 in 90. Default false: a code
   * whose request id names another send is refused.
   */
  requestIdsDiffer?: boolean;
  /**
   * The oldest authentication a frontend-SDK token may carry, by the service's own time stamps,
   * in ms. Older (or with no time at all) is 401 `TOKEN_REJECTED`. Default 300 000 (5 minutes).
   */
  maxAuthAgeMs?: number;
  /** GET on the callback shows a button that POSTs the code; only the POST verifies. Default false. */
  confirm?: boolean;
  /** Call `verify(req, profile, done)` instead of `verify(profile, done)`. Default false. */
  passReqToCallback?: boolean;
  /** The strategy's name for `passport.authenticate()`. Default 'magic-link'. */
  name?: string;
  /** Policy for the verdict stored at login (the guards can re-assess under their own). */
  riskPolicy?: RiskPolicy;
  /**
   * ISO 3166-1 alpha-2 code (`'US'`, `'IN'`) in which a mobile number typed without `+` is read,
   * as it would be dialled there: its international prefixes (`00`, `011`, `0011` ...) and trunk
   * prefix. Default none: such a number is refused with a message asking for the country code.
   */
  defaultCountry?: CountryCode;
  /** Accept e-mail addresses with non-ASCII letters (`josé@bücher.example`). Default false. */
  allowInternationalEmail?: boolean;
  /**
   * How a link to a mobile number travels: 'WHATSAPP' or 'SMS'. Default: not sent, so the
   * service's default (WhatsApp) applies. `send({ channelField })` lets the visitor choose.
   */
  channel?: MagicLinkChannel;
  /**
   * After the resend wait, the waiting page (and its JSON) offers a mobile number's link by the
   * other channel too ("Send by SMS instead" after WhatsApp, and the other way round), a new send
   * of the same sign-in to the same number within the send limits. False offers only the same
   * channel again (an account without SMS, say). Default true.
   */
  fallbackChannel?: boolean;
  /**
   * Limits on `send()` per client IP and per destination: options (see `SendLimitsOptions`), a
   * `SendLimiter` of your own, or `false` for none. Default per 15 minutes: 5 per destination from
   * one client IP, 15 per destination from all IPs together, and 20 per IP; in memory, or in
   * `store`'s Redis when that is given.
   */
  limits?: SendLimitsOptions | SendLimiter | false;
  /**
   * The pages the package shows a person (the approval page on the other device, its outcome,
   * the confirm page): their language (`locale`, `messages`), their look (`theme`), or the whole
   * drawing (`render`, given a typed view model). See docs/pages-and-translations.md.
   */
  pages?: PageOptions;
  /**
   * A check that a person asks for the link (Cloudflare Turnstile, hCaptcha, reCAPTCHA:
   * `botCheck({ provider, secret, siteKey })`), verified before any send limit is spent or any
   * message sent: 403 `BOT_CHECK_FAILED` when it fails, 503 `BOT_CHECK_UNAVAILABLE` when the
   * provider cannot tell. The package's sign-in page shows its widget. Default none.
   */
  botCheck?: BotCheck;
}

/** The words of a bad `defaultCountry`, for the strategy's and `send()`'s option errors. */
export const COUNTRY_EXPECTED = "an ISO 3166-1 alpha-2 country code in upper case, such as 'US' or 'IN'";

/** The owner named in the strategy's option errors. */
export const PREFIX = 'MagicLinkStrategy';
