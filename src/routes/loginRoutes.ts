import type { ServerResponse } from 'node:http';
import { OtplessRequestError } from '../errors/index.js';
import type { CountryCode } from '../contact/phone.js';
import type { LoginSetup } from '../login/compose.js';
import { warnIfStateInMemory } from '../login/stateWarning.js';
import { optionError, optionsObject, refuseUnknownOptions } from '../options.js';
import { anyValue, intFrom, isBoolean, oneOf, stringWhere } from '../options/checks.js';
import { checkOptionsArgument } from '../options/table.js';
import type { OptionTable } from '../options/table.js';
import { sessionOf, setSessionValue } from '../session/session.js';
import { livePending } from '../session/pending.js';
import { isSafeLocalPath } from '../web/origin.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { ownFields, redirectWithError, sendJson, wantsJson } from '../web/request.js';
import { translatorFor } from '../web/messages/index.js';
import { waitInWords } from '../limits/wait.js';
import { setHeader } from '../web/host.js';
import type { MagicLinkChannel } from '../wire/types.js';
import { readBodyIfNeeded } from './body.js';
import { runCallback } from './callbackRoute.js';
import type { CallbackSettings, PassportRunner } from './callbackRoute.js';
import { loginPaths } from './paths.js';
import type { LoginPaths } from './paths.js';
import { RESEND_AFTER_SECONDS, showErrorPage, showSignInPage, showWaitingPage } from './pageRoutes.js';
import type { PagePaths, SignInChoices } from './pageRoutes.js';
import { createPasskeyRoutes } from '../passkey/routes.js';
import type { PasskeyRoutes } from '../passkey/routes.js';
import type { PasskeyOptions } from '../passkey/options.js';
import { createSendMiddleware } from './send.js';
import { createStatusRoute } from './status.js';
import { invalid } from './sendInput.js';
import { againChoices } from './againChoices.js';
import { readResend, readWaiting, rememberWaiting } from './waitingRecord.js';

/** Options of the one mount (`magicLinkRoutes()`, `otplessFastify({ strategy, passport, ... })`, the Nest module). */
export interface LoginRoutesOptions {
  /** Where a browser goes once signed in, unless the session holds a `returnTo`. Default '/'. */
  successRedirect?: string;
  /** Where a browser goes when the callback refuses (with `?error=<code>`). Default: the package's error page. */
  failureRedirect?: string;
  /** The mount's paths; by default siblings of `callbackUrl`'s path (see `LoginPaths`). */
  paths?: Partial<Omit<LoginPaths, 'callback'>>;
  /** The app's own pages by path, in place of the package's. */
  pages?: PagePaths;
  /** What the sign-in page asks for: 'email', 'mobile' or 'both' (the default). */
  contacts?: 'email' | 'mobile' | 'both';
  /** Let the visitor choose WhatsApp or SMS for a mobile number. Default false (the strategy's `channel`). */
  channelChoice?: boolean;
  /** The strategy's `defaultCountry` for numbers typed on this mount's sign-in page. */
  defaultCountry?: CountryCode;
  /** Seconds the waiting page waits before it offers to send the link again (or by another channel). Default 30. */
  resendAfterSeconds?: number;
  /**
   * Offer a passkey right after a link login, and "Sign in with a passkey" on the sign-in page
   * (a sign-in that sends no message). Needs @simplewebauthn/server and a callback URL on a
   * domain (`localhost` in development). See docs/passkeys.md.
   */
  passkeys?: true | PasskeyOptions;
}

const SITE_PATH = "a path on this site, such as '/'";

/** Every option of the mount (but `passport`): its check, default and line in docs/strategy.md. */
export const LOGIN_ROUTES_OPTIONS = {
  successRedirect: {
    check: stringWhere(isSafeLocalPath, SITE_PATH),
    default: '/',
    doc: 'where a browser goes once signed in, unless the session holds a safe `returnTo`',
  },
  failureRedirect: {
    check: stringWhere(isSafeLocalPath, SITE_PATH),
    defaultDoc: "the package's error page",
    doc: 'where a browser goes when the callback refuses, with `?error=<code>`',
  },
  paths: {
    // Checked by loginPaths(), which needs the strategy's callbackUrl.
    check: anyValue<LoginRoutesOptions['paths']>(),
    defaultDoc: "siblings of `callbackUrl`'s path",
    doc: "`{ signIn, send, waiting, status }`, each a path on this site; the callback is always `callbackUrl`'s path",
  },
  pages: {
    check: (value, owner) => checkPages(owner, value),
    defaultDoc: "the package's pages",
    doc: "`{ signIn: '/login', error: '/login-failed' }`: the app's own pages by path. A refused send goes to `signIn` with `?error=<code>&field=<field>`; a refused callback to `error` with `?error=<code>`",
  },
  contacts: {
    check: oneOf(['email', 'mobile', 'both'] as const),
    default: 'both',
    doc: "what the sign-in page asks for: `'email'`, `'mobile'` or `'both'`",
  },
  channelChoice: {
    check: isBoolean,
    default: false,
    doc: "let the visitor choose WhatsApp or SMS for a mobile number (else the strategy's `channel`)",
  },
  defaultCountry: {
    // Checked by the send route the mount builds with it.
    check: anyValue<CountryCode>(),
    defaultDoc: "the strategy's",
    doc: "how numbers typed without `+` on this mount's sign-in page are read",
  },
  resendAfterSeconds: {
    check: intFrom(0, 600),
    default: RESEND_AFTER_SECONDS,
    doc: 'seconds the waiting page waits before it offers to send the link again, or by the other channel (0 to 600); a resend asked sooner while the link is live is 429 `RATE_LIMITED`, and the send limits still apply',
  },
  passkeys: {
    // Checked by createPasskeyRoutes(), which needs the strategy's callbackUrl and store.
    check: anyValue<LoginRoutesOptions['passkeys']>(),
    defaultDoc: 'off',
    doc: '`true` or `{ rpName, credentials, offerWindowMs, notNowDays }`: a passkey offered right after a link login, and a sign-in with it that sends no message ([passkeys](passkeys.md))',
  },
} satisfies OptionTable<LoginRoutesOptions>;

/** The routes of the mount, each a handler of Node's request and response, ready for any host. */
export interface LoginRoutes {
  paths: LoginPaths;
  signIn(req: HttpRequest, res: ServerResponse, next: NextFunction): void;
  send(req: HttpRequest, res: ServerResponse, next: NextFunction): void;
  waiting(req: HttpRequest, res: ServerResponse, next: NextFunction): void;
  status(req: HttpRequest, res: ServerResponse, next: NextFunction): void;
  callback(req: HttpRequest, res: ServerResponse, next: NextFunction): void;
  /** True when the app serves the sign-in page itself (`pages.signIn`). */
  ownSignIn: boolean;
  /** The passkey routes, when `passkeys` is on. */
  passkey?: PasskeyRoutes | undefined;
}

/** Builds the routes of the mount from a strategy's setup; every option is checked here, once. */
export function createLoginRoutes(
  owner: string,
  setup: LoginSetup,
  passport: PassportRunner,
  given: LoginRoutesOptions,
): LoginRoutes {
  // Own keys only (a polluted Object.prototype is no option); a misspelt one is refused.
  const options = checkOptionsArgument(LOGIN_ROUTES_OPTIONS, owner, given, 'an object');
  const pages = options.pages;
  const paths = loginPaths(owner, setup.callbackUrl, options.paths);
  if (pages.signIn) paths.signIn = pages.signIn;
  const base = paths.callback.slice(0, paths.callback.lastIndexOf('/'));
  const passkey = createPasskeyRoutes(
    owner,
    setup,
    options.passkeys,
    base,
    options.successRedirect,
    (req, user) => passport.logIn(req, user),
    readBodyIfNeeded,
  );
  const choices: SignInChoices = {
    contacts: options.contacts,
    channelChoice: options.channelChoice,
    defaultCountry: options.defaultCountry,
    ...(passkey ? { passkey: passkey.signIn() } : {}),
  };
  const callbackSettings: CallbackSettings = {
    setup,
    paths,
    pages,
    successRedirect: options.successRedirect,
    failureRedirect: options.failureRedirect,
    ...(passkey ? { afterLogin: passkey.afterLogin } : {}),
  };
  const resendAfterSeconds = options.resendAfterSeconds;
  // A body too large or not JSON is the caller's: answered as a failed callback is.
  function failCallback(err: unknown, req: HttpRequest, res: ServerResponse, next: NextFunction): void {
    if (!(err instanceof OtplessRequestError)) return next(err);
    if (wantsJson(req)) return sendJson(res, err.status, err);
    const failure = { status: err.status, code: err.code, message: err.message };
    showErrorPage(setup, paths, req, res, failure).catch(next);
  }

  // A JSON client gets the send route's JSON; a browser's refused send comes back to the
  // sign-in page with its message next to the field.
  const onError = (err: OtplessRequestError, req: HttpRequest, res: ServerResponse, next: NextFunction): void => {
    if (wantsJson(req)) return sendJson(res, err.status, err);
    if (pages.signIn) return redirectWithError(res, pages.signIn, err.code, err.field);
    const values = ownFields(req.body);
    showSignInPage(setup, paths, choices, req, res, { err, values }).catch(next);
  };
  const send = createSendMiddleware(
    setup,
    {
      successRedirect: paths.waiting,
      ...(choices.channelChoice ? { channelField: 'channel' } : {}),
      ...(options.defaultCountry !== undefined ? { defaultCountry: options.defaultCountry } : {}),
      onError,
    },
    {
      checkedBefore: (req) => resending.has(req),
      again: (req) => resending.get(req),
      sent(req, input, link) {
        rememberWaiting(setup, req, input, link, Date.now());
        const returnTo = ownFields(req.body).returnTo;
        const session = sessionOf(req);
        if (session && isSafeLocalPath(returnTo)) setSessionValue(session, 'returnTo', returnTo);
      },
    },
  ) as (req: HttpRequest, res: ServerResponse, next: NextFunction) => void;
  const status = createStatusRoute(setup) as (req: HttpRequest, res: ServerResponse, next: NextFunction) => void;

  return {
    paths,
    ownSignIn: pages.signIn !== undefined,
    passkey,
    signIn(req, res, next) {
      showSignInPage(setup, paths, choices, req, res).catch(next);
    },
    send(req, res, next) {
      warnIfStateInMemory(setup, req);
      readBodyIfNeeded(req)
        .then(() => {
          resendFromSession(setup, req, resendAfterSeconds);
          send(req, res, next);
        })
        .catch((err: unknown) => {
          if (!(err instanceof OtplessRequestError)) return next(err);
          // A resend asked before its wait: when it may be asked, as a send limit says it.
          if (err.retryAfterSeconds !== undefined) setHeader(res, 'Retry-After', err.retryAfterSeconds);
          onError(err, req, res, next);
        });
    },
    waiting(req, res, next) {
      showWaitingPage(setup, paths, callbackSettings.successRedirect, resendAfterSeconds, req, res).catch(next);
    },
    status,
    callback(req, res, next) {
      // A link's GET has no body to read: Passport runs at once, without a promise turn first,
      // and no closure made (the build keeps names: a named one costs a definition per login).
      if (req.method !== 'POST' && req.method !== 'PUT') {
        try {
          runCallback(callbackSettings, passport, req, res, next);
        } catch (err) {
          failCallback(err, req, res, next);
        }
        return;
      }
      readBodyIfNeeded(req)
        .then(() => runCallback(callbackSettings, passport, req, res, next))
        .catch((err: unknown) => failCallback(err, req, res, next));
    },
  };
}

/**
 * How much sooner than the page's countdown a resend is taken: the clocks of several instances
 * behind one load balancer may differ by that much, and the page must never offer a refusal.
 */
const RESEND_GRACE_MS = 2_000;

/**
 * Requests that send again what this session sent before (and so passed the bot check then),
 * with the channel chosen and the flow they join.
 */
const resending = new WeakMap<HttpRequest, { channel?: MagicLinkChannel | undefined; sameFlow?: string | undefined }>();

/**
 * "Send it again" (or "Send by SMS instead") on the waiting page, and "Send a new link" on the
 * error page, post no address: `resend=1` and, for another channel, `channel`. The destination
 * of the last send is sent again, in its flow while that flow waits. A JSON client posts
 * `{ "resend": "1", "channel": "SMS" }` the same way. A channel the strategy does not offer
 * (`fallbackChannel`) is refused (400 `INVALID_INPUT` on `channel`); one asked while the last
 * link is live and younger than the waiting page's `resendAfterSeconds` is 429 `RATE_LIMITED`
 * with `Retry-After`, as a send limit's refusal (the send limits apply after the wait too).
 */
function resendFromSession(setup: LoginSetup, req: HttpRequest, resendAfterSeconds: number): void {
  const body = ownFields(req.body);
  if ((body.resend !== '1' && body.resend !== true) || body.email !== undefined || body.mobile !== undefined) {
    return;
  }
  const now = Date.now();
  const again = readResend(setup, req, now);
  const waiting = readWaiting(req, now);
  if (!again || !waiting) return;
  const asked = typeof body.channel === 'string' && body.channel !== '' ? body.channel.toUpperCase() : undefined;
  const offered = againChoices(waiting.via, setup.fallbackChannel).map((c) => c.channel);
  if (asked !== undefined && (asked === 'EMAIL' || !offered.includes(asked as MagicLinkChannel))) {
    throw invalid(translatorFor(req, setup.pages).t('send.channel'), 'channel');
  }
  // The wait the waiting page counts down holds here too while its link is still live: a resend
  // skips the bot check (this session passed it), so a script must not turn one check into a
  // message every request. A link that expired or was used (its send taken) waits for nothing.
  const left = Math.ceil((waiting.sentAt + resendAfterSeconds * 1000 - RESEND_GRACE_MS - now) / 1000);
  if (left > 0 && livePending(sessionOf(req), now).length > 0) {
    const tr = translatorFor(req, setup.pages);
    const message = tr.t('limit.tryAgain', { time: waitInWords(left, tr.locale) });
    throw new OtplessRequestError(429, 'RATE_LIMITED', message, undefined, undefined, left);
  }
  const channel = (asked as MagicLinkChannel | undefined) ?? again.channel;
  req.body = {
    ...(again.email !== undefined ? { email: again.email } : {}),
    ...(again.mobile !== undefined ? { mobile: again.mobile } : {}),
  };
  resending.set(req, { channel, sameFlow: again.flowId });
}

function checkPages(owner: string, given: unknown): PagePaths {
  if (given === undefined) return {};
  const pages = optionsObject<PagePaths>(`${owner} pages`, given, 'an object');
  refuseUnknownOptions(`${owner} pages`, pages, ['signIn', 'error']);
  for (const key of ['signIn', 'error'] as const) {
    const value = pages[key];
    if (value !== undefined && !isSafeLocalPath(value)) {
      throw optionError(owner, `pages.${key}`, "a path on this site, such as '/login'");
    }
  }
  return { ...pages };
}
