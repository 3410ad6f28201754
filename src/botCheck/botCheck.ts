import { optionError } from '../options.js';
import { checkOptionsArgument } from '../options/table.js';
import type { OptionTable } from '../options/table.js';
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
  /** reCAPTCHA v3 only: the lowest score that passes (0..1, higher is more likely a person). Default 0.5. */
  minScore?: number;
  /**
   * hCaptcha Enterprise only: the highest risk score that passes (0..1; hCaptcha's score is a
   * risk score, higher is riskier). Default 0.5.
   */
  maxRiskScore?: number;
}

/**
 * How each provider's `siteverify` answer scores a token, as the provider documents it:
 * reCAPTCHA v3 sends `score` 0..1, higher more likely a person (v2 sends none); hCaptcha
 * Enterprise sends `score` 0..1 as a risk score, higher riskier (other plans send none);
 * Turnstile sends no score at all, so a `score` in its answer is no part of it and ignored.
 * A score that is sent but is not a number from 0 to 1 fails (closed).
 */
type ScoreRule = (score: unknown) => boolean;

const scoreIsUnit = (score: unknown): score is number => typeof score === 'number' && score >= 0 && score <= 1;

function scoreRule(provider: BotCheckProvider, minScore: number, maxRiskScore: number): ScoreRule {
  if (provider === 'recaptcha') return (score) => score === undefined || (scoreIsUnit(score) && score >= minScore);
  if (provider === 'hcaptcha') return (score) => score === undefined || (scoreIsUnit(score) && score <= maxRiskScore);
  return () => true;
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

/** Every option of `botCheck()`: its check, default and line in docs/send-limits.md. */
export const BOT_CHECK_OPTIONS = {
  provider: {
    check: (value, owner, name) => {
      if (typeof value !== 'string' || !Object.hasOwn(PROVIDERS, value)) {
        throw optionError(owner, name, "'turnstile', 'hcaptcha' or 'recaptcha'");
      }
      return value as BotCheckProvider;
    },
    defaultDoc: 'required',
    doc: "`'turnstile'` (Cloudflare), `'hcaptcha'` or `'recaptcha'`",
  },
  secret: {
    check: nonEmptyString,
    defaultDoc: 'required',
    doc: "the provider's secret key: it stays on the server, in the verifying call's body",
  },
  siteKey: {
    check: (value, owner, name) => {
      const siteKey = nonEmptyString(value, owner, name);
      if (!/^[\w.-]+$/.test(siteKey)) throw optionError(owner, name, 'a site key: letters, digits, - _ .');
      return siteKey;
    },
    defaultDoc: 'required',
    doc: "the provider's site key, for the widget on the sign-in page",
  },
  timeoutMs: {
    check: (value, owner, name) => {
      const timeoutMs = value ?? 5000;
      if (!Number.isInteger(timeoutMs) || (timeoutMs as number) < 100 || (timeoutMs as number) > 60_000) {
        throw optionError(owner, name, 'an integer of ms from 100 to 60000');
      }
      return timeoutMs as number;
    },
    default: 5000,
    doc: "the verifying call's limit, in ms; past it, the send is refused (503 `BOT_CHECK_UNAVAILABLE`)",
  },
  verifyUrl: {
    check: (value, owner, name) => {
      if (value === undefined || value === null) return undefined;
      if (!/^https?:\/\//.test(String(value))) throw optionError(owner, name, 'an absolute http(s) URL');
      return value as string;
    },
    defaultDoc: "the provider's own",
    doc: 'the verifying endpoint: a local stand-in of `siteverify` in tests',
  },
  minScore: {
    check: (value, owner, name) => {
      const minScore = value ?? 0.5;
      if (typeof minScore !== 'number' || !(minScore >= 0 && minScore <= 1)) {
        throw optionError(owner, name, 'a number from 0 to 1');
      }
      return minScore;
    },
    default: 0.5,
    doc: 'reCAPTCHA v3 only: the lowest score that passes (0..1; reCAPTCHA scores 1.0 as very likely a person)',
  },
  maxRiskScore: {
    check: (value, owner, name) => {
      const maxRiskScore = value ?? 0.5;
      if (typeof maxRiskScore !== 'number' || !(maxRiskScore >= 0 && maxRiskScore <= 1)) {
        throw optionError(owner, name, 'a number from 0 to 1');
      }
      return maxRiskScore;
    },
    default: 0.5,
    doc: "hCaptcha Enterprise only: the highest risk score that passes (0..1; hCaptcha's score is a risk score, higher is riskier)",
  },
} satisfies OptionTable<BotCheckOptions>;

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
  // Own keys only (a polluted Object.prototype is no option); a misspelt one is refused.
  const options = checkOptionsArgument(BOT_CHECK_OPTIONS, OWNER, given, 'an object with provider, secret and siteKey');
  const provider = PROVIDERS[options.provider];
  const { timeoutMs } = options;
  const scorePasses = scoreRule(options.provider, options.minScore, options.maxRiskScore);
  const verifyUrl = options.verifyUrl ?? provider.verifyUrl;
  const { secret, siteKey } = options;
  return {
    field: provider.field,
    verify: (token, remoteIp) =>
      verifyChallenge({ url: verifyUrl, secret, siteKey, token, remoteIp, timeoutMs, scorePasses }),
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

/** A required non-empty string. */
function nonEmptyString(value: unknown, owner: string, name: string): string {
  if (typeof value !== 'string' || value === '') throw optionError(owner, name, 'a non-empty string');
  return value;
}
