import { optionError, optionsObject, refuseUnknownOptions } from '../options.js';
import { verifyChallenge } from './siteverify.js';

/** The challenge services the package knows: each verifies a widget's token with the app's secret. */
export type BotCheckProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

/** What the sign-in page adds for the widget: its script and its element. */
export interface BotCheckWidget {
  /** The provider's script (its origin is added to the sign-in page's CSP). */
  scriptUrl: string;
  /** The class of the element the script turns into the widget. */
  className: string;
  /** The site key the element carries (public). */
  siteKey: string;
  /** What the sign-in page's CSP must allow for the widget: its script, its frames, its calls. */
  csp: { script: readonly string[]; frame: readonly string[]; connect: readonly string[] };
}

/**
 * A check that a person, not a script, asks for the link: verified before any send limit is
 * spent or any message sent. Build one with `botCheck()`, or give your own `verify`.
 */
export interface BotCheck {
  /** The form or JSON field that carries the widget's token. */
  field: string;
  /** True when the token proves a person; false when it does not. Throws when it cannot tell (refused as unavailable). */
  verify(token: string, remoteIp: string | undefined): Promise<boolean>;
  /** The widget the package's sign-in page shows; absent for an app that draws its own. */
  widget?: BotCheckWidget | undefined;
}

/** Options of `botCheck()`. */
export interface BotCheckOptions {
  provider: BotCheckProvider;
  /** The provider's secret key: it stays on the server, in the verifying call's body. */
  secret: string;
  /** The provider's site key, for the widget on the sign-in page. */
  siteKey: string;
  /** The verifying call's limit, in ms. Default 5000; past it, the send is refused (503). */
  timeoutMs?: number;
  /** The verifying endpoint, for a local stand-in in tests. Default: the provider's own. */
  verifyUrl?: string;
  /** reCAPTCHA v3 only: the lowest score that passes (0..1). Default 0.5. */
  minScore?: number;
}

const PROVIDERS: Record<
  BotCheckProvider,
  { verifyUrl: string; field: string; scriptUrl: string; className: string; csp: BotCheckWidget['csp'] }
> = {
  turnstile: {
    verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    field: 'cf-turnstile-response',
    scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    className: 'cf-turnstile',
    csp: { script: ['https://challenges.cloudflare.com'], frame: ['https://challenges.cloudflare.com'], connect: [] },
  },
  hcaptcha: {
    verifyUrl: 'https://api.hcaptcha.com/siteverify',
    field: 'h-captcha-response',
    scriptUrl: 'https://js.hcaptcha.com/1/api.js',
    className: 'h-captcha',
    csp: {
      script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    },
  },
  recaptcha: {
    verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
    field: 'g-recaptcha-response',
    scriptUrl: 'https://www.google.com/recaptcha/api.js',
    className: 'g-recaptcha',
    csp: {
      script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
      frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
      connect: [],
    },
  },
};

const OWNER = 'botCheck()';

/**
 * A bot check through Cloudflare Turnstile, hCaptcha or reCAPTCHA: the strategy's `botCheck`
 * option. The send verifies the widget's token with your secret (with a timeout, failing
 * closed) before it spends a limit or sends a message; the package's sign-in page shows the
 * widget.
 *
 * @example
 * new MagicLinkStrategy({ ..., botCheck: botCheck({ provider: 'turnstile', secret: process.env.TURNSTILE_SECRET, siteKey: '0x4AAA...' }) }, verify);
 */
export function botCheck(given: BotCheckOptions): BotCheck {
  // Own keys only: a polluted Object.prototype is no option.
  const options = optionsObject<BotCheckOptions>(OWNER, given, 'an object with provider, secret and siteKey');
  refuseUnknownOptions(OWNER, options, ['provider', 'secret', 'siteKey', 'timeoutMs', 'verifyUrl', 'minScore']);
  if (typeof options.provider !== 'string' || !Object.hasOwn(PROVIDERS, options.provider)) {
    throw optionError(OWNER, 'provider', "'turnstile', 'hcaptcha' or 'recaptcha'");
  }
  const provider = PROVIDERS[options.provider];
  for (const key of ['secret', 'siteKey'] as const) {
    if (typeof options[key] !== 'string' || options[key] === '') throw optionError(OWNER, key, 'a non-empty string');
  }
  if (!/^[\w.-]+$/.test(options.siteKey)) throw optionError(OWNER, 'siteKey', 'a site key: letters, digits, - _ .');
  const timeoutMs = options.timeoutMs ?? 5000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000) {
    throw optionError(OWNER, 'timeoutMs', 'an integer of ms from 100 to 60000');
  }
  const verifyUrl = options.verifyUrl ?? provider.verifyUrl;
  if (!/^https?:\/\//.test(verifyUrl)) throw optionError(OWNER, 'verifyUrl', 'an absolute http(s) URL');
  const minScore = options.minScore ?? 0.5;
  if (typeof minScore !== 'number' || !(minScore >= 0 && minScore <= 1)) {
    throw optionError(OWNER, 'minScore', 'a number from 0 to 1');
  }
  const { secret, siteKey } = options;
  return {
    field: provider.field,
    verify: (token, remoteIp) =>
      verifyChallenge({ url: verifyUrl, secret, siteKey, token, remoteIp, timeoutMs, minScore }),
    widget: { scriptUrl: provider.scriptUrl, className: provider.className, siteKey, csp: provider.csp },
  };
}

/** Checks the strategy's `botCheck` option: a `BotCheck` (from `botCheck()` or the app's own). */
export function checkBotCheck(owner: string, value: unknown): BotCheck | undefined {
  if (value === undefined) return undefined;
  const check = value as Partial<BotCheck> | null;
  if (
    typeof check !== 'object' ||
    check === null ||
    typeof check.field !== 'string' ||
    check.field === '' ||
    typeof check.verify !== 'function'
  ) {
    throw optionError(owner, 'botCheck', "a BotCheck, such as botCheck({ provider: 'turnstile', secret, siteKey })");
  }
  return Object.freeze({ ...check } as BotCheck);
}
