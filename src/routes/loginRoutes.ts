import type { ServerResponse } from 'node:http';
import { OtplessRequestError } from '../errors/index.js';
import type { CountryCode } from '../contact/phone.js';
import type { LoginSetup } from '../login/compose.js';
import { warnIfStateInMemory } from '../login/stateWarning.js';
import { optionError, optionsObject, refuseUnknownOptions, boolOption, oneOfOption } from '../options.js';
import { sessionOf, setSessionValue } from '../session/session.js';
import { isSafeLocalPath } from '../web/origin.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { redirectWithError, sendJson, wantsJson } from '../web/request.js';
import { readBodyIfNeeded } from './body.js';
import { runCallback } from './callbackRoute.js';
import type { CallbackSettings, PassportRunner } from './callbackRoute.js';
import { loginPaths } from './paths.js';
import type { LoginPaths } from './paths.js';
import { showErrorPage, showSignInPage, showWaitingPage } from './pageRoutes.js';
import type { PagePaths, SignInChoices } from './pageRoutes.js';
import { createSendMiddleware } from './send.js';
import { createStatusRoute } from './status.js';
import { readResend, rememberWaiting } from './waitingRecord.js';

/** Options of the one mount (`magicLinkRoutes()`, and `otplessFastify({ routes })`). */
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
}

const OPTION_NAMES = Object.keys({
  successRedirect: true,
  failureRedirect: true,
  paths: true,
  pages: true,
  contacts: true,
  channelChoice: true,
  defaultCountry: true,
} satisfies Record<keyof LoginRoutesOptions, true>);

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
}

/** Builds the routes of the mount from a strategy's setup; every option is checked here, once. */
export function createLoginRoutes(
  owner: string,
  setup: LoginSetup,
  passport: PassportRunner,
  given: LoginRoutesOptions,
): LoginRoutes {
  // Own keys only: a polluted Object.prototype is no option.
  const options = optionsObject<LoginRoutesOptions>(owner, given, 'an object');
  refuseUnknownOptions(owner, options, OPTION_NAMES);
  for (const key of ['successRedirect', 'failureRedirect'] as const) {
    const value = options[key];
    if (value !== undefined && !isSafeLocalPath(value))
      throw optionError(owner, key, "a path on this site, such as '/'");
  }
  const pages = checkPages(owner, options.pages);
  const paths = loginPaths(owner, setup.callbackUrl, options.paths);
  if (pages.signIn) paths.signIn = pages.signIn;
  const choices: SignInChoices = {
    contacts: oneOfOption(owner, options, 'contacts', ['email', 'mobile', 'both'] as const) ?? 'both',
    channelChoice: boolOption(owner, options, 'channelChoice') ?? false,
    defaultCountry: options.defaultCountry,
  };
  const callbackSettings: CallbackSettings = {
    setup,
    paths,
    pages,
    successRedirect: options.successRedirect ?? '/',
    failureRedirect: options.failureRedirect,
  };

  // A JSON client gets the send route's JSON; a browser's refused send comes back to the
  // sign-in page with its message next to the field.
  const onError = (err: OtplessRequestError, req: HttpRequest, res: ServerResponse, next: NextFunction): void => {
    if (wantsJson(req)) return sendJson(res, err.status, err);
    if (pages.signIn) return redirectWithError(res, pages.signIn, err.code, err.field);
    const values = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
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
      sent(req, input) {
        rememberWaiting(setup, req, input, Date.now());
        const returnTo = (req.body as { returnTo?: unknown } | undefined)?.returnTo;
        const session = sessionOf(req);
        if (session && isSafeLocalPath(returnTo)) setSessionValue(session, 'returnTo', returnTo);
      },
    },
  ) as (req: HttpRequest, res: ServerResponse, next: NextFunction) => void;
  const status = createStatusRoute(setup) as (req: HttpRequest, res: ServerResponse, next: NextFunction) => void;

  return {
    paths,
    ownSignIn: pages.signIn !== undefined,
    signIn(req, res, next) {
      showSignInPage(setup, paths, choices, req, res).catch(next);
    },
    send(req, res, next) {
      warnIfStateInMemory(setup, req);
      readBodyIfNeeded(req)
        .then(() => {
          resendFromSession(setup, req);
          send(req, res, next);
        })
        .catch((err: unknown) => (err instanceof OtplessRequestError ? onError(err, req, res, next) : next(err)));
    },
    waiting(req, res, next) {
      showWaitingPage(setup, paths, callbackSettings.successRedirect, req, res).catch(next);
    },
    status,
    callback(req, res, next) {
      readBodyIfNeeded(req)
        .then(() => runCallback(callbackSettings, passport, req, res, next))
        .catch((err: unknown) => {
          // A body too large or not JSON is the caller's: answered as a failed callback is.
          if (!(err instanceof OtplessRequestError)) return next(err);
          if (wantsJson(req)) return sendJson(res, err.status, err);
          const failure = { status: err.status, code: err.code, message: err.message };
          showErrorPage(setup, paths, req, res, failure).catch(next);
        });
    },
  };
}

/** Requests that send again what this session sent before (and so passed the bot check then). */
const resending = new WeakSet<HttpRequest>();

/** "Send it again" on the waiting page posts no address: the one of the last send is sent again. */
function resendFromSession(setup: LoginSetup, req: HttpRequest): void {
  const body = req.body as Record<string, unknown> | undefined;
  if (!body || body.resend !== '1' || body.email !== undefined || body.mobile !== undefined) return;
  const again = readResend(setup, req);
  if (!again) return;
  req.body = { ...again };
  resending.add(req);
}

function checkPages(owner: string, given: PagePaths | undefined): PagePaths {
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
